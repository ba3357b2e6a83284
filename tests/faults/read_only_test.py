#!/usr/bin/env python3
"""The disk under a node turns read-only (issue 42, finding 7). The SQLite database is on a small
ext4 file system (an image on a loop device); two guests play and every move they saw acknowledged
is kept. Then the file system goes read-only as the kernel makes it when the disk fails
(errors=remount-ro; here `mount -o remount,abort`, ext4's way to ask for exactly that): the next
move is answered `internal_error` and /readyz says 503 store_unwritable within 2 s, and stays so.

`mount -o remount,ro` itself cannot do this to a running server: Linux refuses it (EBUSY) while a
file is open for writing, as the database is. And a file system that went read-only this way
comes back only through an unmount, so the operator's way back is the test's: the node stops,
the file system is checked and mounted again, a node starts on the same file, /readyz says 200,
the players reconnect and the game goes on. At the end the stored record holds every acknowledged
move exactly once, in order.

    python3 read_only_test.py --bin BUILD/bin [--long]   (--long: three times over)
"""
import os
import subprocess
import time

import faults
from faults import check


def make_image(path):
    with open(path, "wb") as image:
        image.truncate(32 << 20)
    done = subprocess.run(["mkfs.ext4", "-q", "-F", path], capture_output=True, text=True)
    check(done.returncode == 0, f"mkfs.ext4 (Debian package e2fsprogs): {done.stderr.strip()}")


def read_only_once(suite, game, node, disk, image, cycle):
    disk.remount("abort")
    unready, body = faults.refused_while_broken(game, node, f"round {cycle}")
    print(f"round {cycle}: the move refused internal_error, /readyz 503 after {unready:.2f} s "
          f"({body['error']})")

    # The operator's way back: stop the node, check and mount the file system again, start.
    stopped = node.stop()
    disk.close()
    fsck = subprocess.run(["e2fsck", "-f", "-y", image], capture_output=True, text=True)
    check(fsck.returncode in (0, 1), f"e2fsck: {fsck.returncode} {fsck.stdout[-500:]}")
    disk = faults.Mounted(image, disk.where, "ext4", "loop")
    node = suite.node(f"node-{cycle + 1}", db=node.db)
    ready = faults.await_readiness(node, "ready", 5)
    game.reconnect(node.port)
    game.check_snapshot()  # the snapshot holds exactly the acknowledged moves
    game.play(2)  # the refused move again, and the answer
    print(f"round {cycle}: the node stopped (exit code {stopped}), restarted on the file system "
          f"mounted again: ready after {ready:.2f} s, the game goes on")
    return node, disk


def run(suite):
    started = time.monotonic()
    image = os.path.join(suite.work, "disk.img")
    make_image(image)
    disk = faults.Mounted(image, os.path.join(suite.work, "disk"), "ext4", "loop")
    try:
        node = suite.node("node-1", db=os.path.join(disk.where, "chessence.db"))
        check(faults.readiness(node)[0] == "ready", "/readyz before any fault")
        game = faults.Game(node.port)
        game.play(6)
        for cycle in range(1, (3 if suite.long else 1) + 1):
            node, disk = read_only_once(suite, game, node, disk, image, cycle)
        game.check_record(node)
        game.close()
        check(node.stop() == 0, "the node did not stop cleanly")
    finally:
        disk.close()
    print(f"{len(game.acked)} acknowledged moves, all stored once and in order; "
          f"{time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    faults.main(run)
