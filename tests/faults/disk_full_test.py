#!/usr/bin/env python3
"""The disk fills up under a node (issue 42, finding 7). The SQLite database is on a small tmpfs;
two guests play and every move they saw acknowledged is kept. Then a file fills the disk: the
next move is answered `internal_error` (not lost silently, not acknowledged) and /readyz says 503
store_unwritable within 2 s, so a load balancer stops sending players here. The file is removed:
/readyz says 200 again within 2 s, by itself (no player moved meanwhile), and the game goes on;
each change is logged once.
At the end the stored record holds every acknowledged move exactly once, in order.

    python3 disk_full_test.py --bin BUILD/bin [--long]   (--long: five fills instead of one)
"""
import os
import time

import faults
from faults import check


def one_fill(game, node, disk, cycle):
    filler = faults.fill_disk(disk)
    unready, body = faults.refused_while_broken(game, node, f"fill {cycle}")
    check(node.get("/healthz")[0] == 200, "/healthz: the process still serves")

    os.remove(filler)
    ready = faults.await_readiness(node, "ready", 2)
    game.play(2)  # the refused move again, and the answer
    log = node.log_text()
    check(log.count("not ready: store_unwritable") == cycle and log.count("ready again") == cycle,
          f"fill {cycle}: each change of readiness is logged once, not every request or try")
    print(f"fill {cycle}: the move refused internal_error, /readyz 503 after {unready:.2f} s "
          f"({body['error']}); ready {ready:.2f} s after the space came back")


def run(suite):
    started = time.monotonic()
    disk = os.path.join(suite.work, "disk")
    with faults.Mounted("tmpfs", disk, "tmpfs", "size=8m"):
        node = suite.node("node", db=os.path.join(disk, "chessence.db"))
        check(faults.readiness(node)[0] == "ready", "/readyz before any fault")
        game = faults.Game(node.port)
        game.play(6)
        for cycle in range(1, (5 if suite.long else 1) + 1):
            one_fill(game, node, disk, cycle)
        game.check_record(node)
        game.close()
        check(node.stop() == 0, "the node did not stop cleanly")
    print(f"{len(game.acked)} acknowledged moves, all stored once and in order; "
          f"{time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    faults.main(run)
