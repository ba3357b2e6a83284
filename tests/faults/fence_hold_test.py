#!/usr/bin/env python3
"""A node stopped right after its fence check holds up none of the claimer's other writes (issue
42, finding 15: "A paused owner's fence lock freezes every write of the node that claims its game
… the claimer stored 0 moves in all its games for the whole pause"). Two cluster nodes on one
PostgreSQL and one Redis of this test's own, leases of 1 s; node 1 reaches PostgreSQL through
faults.PostgresHold, a proxy that lets node 1's next fence check through (the server takes the
game's row lock FOR SHARE) and then stops node 1 (SIGSTOP) with that transaction open. Node 1's
game is played on; its players come to node 2, whose claim meets the lock: it waits at most its
lock_timeout a try, says server_restarting, and is asked again until PostgreSQL ends the stopped
node's transaction (idle_in_transaction_session_timeout). All the while node 2's own game moves,
each move acknowledged promptly. The held game goes on at node 2, and both records hold every
acknowledged move once, in order.

    python3 fence_hold_test.py --bin BUILD/bin [--long]   (--long: three holds, p50/max)
"""
import os
import statistics
import time

import faults
from faults import check

LEASE_S = 1.0
# The claimer's other game: a move is acknowledged within this while the claim waits (before the
# claim had a connection of its own, the claimer's writer waited on the lock, seconds on end).
PROMPT_S = 1.0
# The held game is served at node 2 once PostgreSQL ends node 1's transaction (5 s idle in a
# transaction, server/store/postgres_db.h), a claim try later (lock_timeout 1 s, three tries).
SERVED_BY_S = 5.0 + 3.5 + 3.0


def cluster_node(suite, name, db, redis):
    return suite.node(name, db=db, args=["--redis", redis.url, "--node-id", name,
                                         "--lease-ms", str(int(LEASE_S * 1000))])


class OwnGames:
    """Node 2's own games, played one move at a time; a game that ends is followed by a new one."""

    def __init__(self, node):
        self.node, self.games = node, []

    def move(self):
        """One acknowledged move; the seconds it took to be acknowledged."""
        if not self.games or self.games[-1].snapshot().get("result") is not None:
            self.games.append(faults.Game(self.node.port, label=f"node 2's own {len(self.games) + 1}"))
        started = time.monotonic()
        self.games[-1].play(1)
        return time.monotonic() - started

    def check_and_close(self):
        for game in self.games:
            game.check_record(self.node)
            game.close()


def one_hold(suite, hold, redis, second, other, cycle):
    """Node 1 (through `hold`) stopped after its fence check: (seconds until node 2 served the
    held game, the slowest move of node 2's own game meanwhile, moves it made meanwhile)."""
    first = cluster_node(suite, f"n1-{cycle}", hold.uri, redis)
    game = faults.Game(first.port, label=f"held {cycle}")  # created on node 1: it owns it
    game.play(2)
    snap = game.snapshot()
    mover = game.players()[snap["to_move"]]

    hold.arm(on_hold=first.pause)
    mover.send({"type": "move", "id": "held", "game_id": game.game_id, "move": snap["legal"][0]})
    faults.wait_until(hold.held.is_set, 5, f"hold {cycle}: node 1's fence check")
    held_at = time.monotonic()
    try:
        game.reconnect(second.port)  # the players come to node 2, which must claim the game
        slowest, moved, served = 0.0, 0, None
        while served is None:
            check(time.monotonic() - held_at < SERVED_BY_S, f"hold {cycle}: node 2 did not serve "
                  f"the held game within {SERVED_BY_S} s")
            rid = game._id("watch")
            game.white.send({"type": "watch", "id": rid, "game_id": game.game_id})
            reply = None
            while reply is None:
                # Node 2's own game moves while its claim waits on the lock.
                slowest = max(slowest, other.move())
                moved += 1
                try:
                    reply = game.answer(game.white, rid, timeout=0.05)
                except faults.Failure:
                    check(time.monotonic() - held_at < SERVED_BY_S, f"hold {cycle}: the watch "
                          f"on node 2 was not answered within {SERVED_BY_S} s")
            if reply.get("type") == "snapshot":
                served = time.monotonic() - held_at
            else:
                check(reply.get("code") == "server_restarting", f"hold {cycle}: the watch on "
                      f"node 2 answered {reply}")
                time.sleep(0.2)
        check(slowest < PROMPT_S, f"hold {cycle}: a move of node 2's own game took "
              f"{slowest:.2f} s while its claim waited for node 1's lock")
        check(reply["moves"] == game.acked, f"hold {cycle}: node 2's snapshot {reply['moves']}, "
              f"acknowledged were {game.acked}")
        game.play(2)  # the held game goes on at node 2
    finally:
        first.resume()
        hold.release()
    game.check_snapshot()
    game.check_record(second)
    faults.wait_until(lambda: game.record(first.port)["moves"] == game.acked, 10,
                      f"hold {cycle}: node 1's reading of the record")
    game.close()
    check(first.stop() == 0, f"{first.name} did not stop cleanly")
    print(f"hold {cycle}: node 2 served the held game after {served:.2f} s; its own game made "
          f"{moved} moves meanwhile, the slowest acknowledged in {slowest * 1000:.0f} ms; "
          f"{len(game.acked)} acknowledged moves stored once and in order")
    return served, slowest


def run(suite):
    started = time.monotonic()
    postgres = faults.PrivatePostgres(suite, os.path.join(suite.work, "pg"))
    hold = faults.PostgresHold(suite, postgres, os.path.join(suite.work, "pg-hold"))
    redis = faults.Redis(suite)
    second = cluster_node(suite, "n2", postgres.uri, redis)
    other = OwnGames(second)
    served, slowest = [], []
    for cycle in range(1, (3 if suite.long else 1) + 1):
        times = one_hold(suite, hold, redis, second, other, cycle)
        served.append(times[0])
        slowest.append(times[1])
    other.check_and_close()
    check(second.stop() == 0, "n2 did not stop cleanly")
    if len(served) > 1:
        print(f"served at node 2: median {statistics.median(served):.2f} s, max "
              f"{max(served):.2f} s; slowest move of its own game: max "
              f"{max(slowest) * 1000:.0f} ms")
    print(f"{time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    faults.main(run)
