#!/usr/bin/env python3
"""PostgreSQL pauses under a node (issue 42, finding 2: "a node whose PostgreSQL hangs freezes
whole"). One node on a PostgreSQL server of this test's own (tests/support/postgres.sh, in the
suite's folder; never the one the other tests share, since it is paused); two guests play. Then
every process of that PostgreSQL is stopped with SIGSTOP for 8 s, as a hung or paused server is:
its kernel still accepts and acknowledges TCP and Unix connections, so only the node's own
deadlines (--store-timeout-ms, 2 s here) can end a call. The move sent then is answered with an
error within two deadlines and a margin (its commit, then the room's reading back whether the
failed batch landed), never hangs; /healthz still answers; /readyz says 503. After SIGCONT /readyz
says 200 again within a few seconds, the game moves again, and the stored record holds every
acknowledged move exactly once, in order. The game is timed, and the mover is not charged for the
time its moves were refused (issue 42, finding 17): from the refused move until the store worked
again is refunded like downtime, within 1 s of the pause.

    python3 postgres_pause_test.py --bin BUILD/bin [--long]   (--long: five pauses)
"""
import os
import statistics
import threading
import time

import faults
from faults import check

DEADLINE_S = 2.0  # --store-timeout-ms
PAUSE_S = 8.0
MARGIN_S = 1.5
CLOCK = {"initial": 300, "increment": 0}
REFUND_TOLERANCE_S = 1.0
UNREADY = ("store_unreachable", "store_unwritable")


class ReadinessWatch:
    """Asks /readyz every 0.1 s on a thread of its own: when it first said 503 (seconds after
    `since`), None while it has not."""

    def __init__(self, node, since):
        self.node, self.since = node, since
        self.first_unready = None
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)
        self.thread.start()

    def watch(self):
        while not self.stopping.is_set() and self.first_unready is None:
            status, _, _ = self.node.get("/readyz", timeout=2)
            if status == 503:
                self.first_unready = time.monotonic() - self.since
            self.stopping.wait(0.1)

    def stop(self):
        self.stopping.set()
        self.thread.join()


def one_pause(game, node, postgres, cycle):
    """One pause; (seconds to the move's error, seconds from SIGCONT to /readyz 200, seconds
    refunded to the mover)."""
    # The move is chosen before the pause: the watch that finds it is not what is under test.
    asked = time.monotonic()
    side, move, left_before, client, rid = game.mover_thinking(f"pause {cycle}")

    stopped = postgres.pause()
    paused_at = time.monotonic()
    watcher = ReadinessWatch(node, paused_at)
    try:
        client.send({"type": "move", "id": rid, "game_id": game.game_id, "move": move})
        reply = game.answer(client, rid, timeout=PAUSE_S - 0.5)
        to_error = time.monotonic() - paused_at
        check(reply, f"pause {cycle}: the move sent while PostgreSQL was paused was not answered "
              f"within {PAUSE_S - 0.5:.1f} s")
        check(reply.get("type") == "error" and reply.get("code") == "internal_error",
              f"pause {cycle}: the move was answered {reply}, not internal_error")
        check(to_error <= 2 * DEADLINE_S + MARGIN_S,
              f"pause {cycle}: the error came after {to_error:.2f} s, beyond two deadlines of "
              f"{DEADLINE_S} s and {MARGIN_S} s")
        health_started = time.monotonic()
        check(node.get("/healthz", timeout=2)[0] == 200,
              f"pause {cycle}: /healthz did not answer while PostgreSQL was paused")
        health = time.monotonic() - health_started
        faults.wait_until(lambda: faults.readiness(node)[0] in UNREADY,
                          PAUSE_S - (time.monotonic() - paused_at) - 0.3,
                          f"pause {cycle}: /readyz saying 503 while PostgreSQL is paused")
        status, body = faults.readiness(node)
        seen_unready = time.monotonic() - paused_at
        time.sleep(max(0.0, PAUSE_S - (time.monotonic() - paused_at)))
        check(faults.readiness(node)[0] in UNREADY,
              f"pause {cycle}: /readyz said ready again while PostgreSQL was still paused")
    finally:
        postgres.resume()
        resumed_at = time.monotonic()
        watcher.stop()
    unready = watcher.first_unready if watcher.first_unready is not None else seen_unready
    to_ready = faults.await_readiness(node, "ready", 5)
    game.play(1)  # the refused move again
    moved = time.monotonic()
    to_move = moved - resumed_at
    # From the reading before the pause to the move: what passed, less what the mover was
    # charged, was refunded; the game could not move from the refused move to SIGCONT.
    charged = (left_before - game.snapshot()["clock"][side]) / 1000
    refunded = (moved - asked) - charged
    could_not_move = resumed_at - paused_at
    print(f"pause {cycle}: {side} charged {charged:.2f} s of the {moved - asked:.2f} s until its "
          f"move: {refunded:.2f} s refunded, the game could not move for {could_not_move:.2f} s")
    check(abs(refunded - could_not_move) <= REFUND_TOLERANCE_S,
          f"pause {cycle}: {refunded:.2f} s refunded to {side}, the store could not be used for "
          f"{could_not_move:.2f} s (not within {REFUND_TOLERANCE_S} s)")
    game.play(1)
    print(f"pause {cycle}: {stopped} PostgreSQL processes stopped for {PAUSE_S:.0f} s; the move "
          f"answered internal_error after {to_error:.2f} s; /healthz answered in {health:.2f} s; "
          f"/readyz 503 {status} after {unready:.2f} s ({body.get('error')}); after SIGCONT "
          f"/readyz 200 in {to_ready:.2f} s, the move acknowledged in {to_move:.2f} s")
    return to_error, to_ready, refunded


def run(suite):
    started = time.monotonic()
    postgres = faults.PrivatePostgres(suite, os.path.join(suite.work, "pg"))
    node = suite.node("node", db=postgres.uri,
                      args=["--store-timeout-ms", str(int(DEADLINE_S * 1000))])
    check(faults.await_readiness(node, "ready", 5) < 5, "/readyz before any fault")
    game = faults.Game(node.port, clock=CLOCK)
    game.play(4)  # both have moved: White's clock runs
    errors, readies, refunds = [], [], []
    for cycle in range(1, (5 if suite.long else 1) + 1):
        to_error, to_ready, refunded = one_pause(game, node, postgres, cycle)
        errors.append(to_error)
        readies.append(to_ready)
        refunds.append(refunded)
    game.check_snapshot()
    game.check_record(node)
    game.close()
    check(node.stop() == 0, "the node did not stop cleanly")
    if len(errors) > 1:
        print(f"time to the error: median {statistics.median(errors):.2f} s, max "
              f"{max(errors):.2f} s; time to ready after SIGCONT: median "
              f"{statistics.median(readies):.2f} s, max {max(readies):.2f} s; refunded of "
              f"{PAUSE_S:.0f} s: median {statistics.median(refunds):.2f} s, min "
              f"{min(refunds):.2f} s")
    print(f"{len(game.acked)} acknowledged moves, all stored once and in order; "
          f"{time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    faults.main(run)
