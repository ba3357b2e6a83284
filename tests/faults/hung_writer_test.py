#!/usr/bin/env python3
"""A node whose writer hangs gives its games up (issue 42, finding 2: "lease renewal does not care
whether the node can still write"). Two cluster nodes on one PostgreSQL and one Redis of this
test's own, leases of 2 s; two guests play on node 1, which is the server with fault points
(fault_server.cpp). SIGUSR2 makes node 1's writer hang: every batch is held back before the
store, as by a disk or a database connection that does not answer. The move sent then is not
answered; node 1 says 503 on /readyz and stops renewing its leases, so within about a lease and a
half its room stops acting for the game (its players are told server_restarting); the players go
to node 2, which takes the game over and plays it on. When node 1's writer answers again its held
batch is fenced off, and the record holds every acknowledged move exactly once, in order.

    python3 hung_writer_test.py --bin BUILD/bin [--long]   (--long: three hangs)
"""
import os
import signal
import statistics
import time

import faults
from faults import check

LEASE_S = 2.0
# The renewal stops a quarter of a lease into the hang, a round comes every third of a lease, and
# a lease renewed just before runs out one lease later.
GIVEN_UP_BY_S = LEASE_S / 4 + LEASE_S / 3 + LEASE_S + 1.0


def cluster_node(suite, name, postgres, redis, program="chessence-server"):
    return suite.node(name, db=postgres.uri, program=program,
                      args=["--redis", redis.url, "--node-id", name,
                            "--lease-ms", str(int(LEASE_S * 1000))])


def told_to_go(client, game_id, timeout):
    """The room's word that it stopped acting for the game (server_restarting, no request id)."""
    return client.wait_for(lambda m: m.get("type") == "error" and m.get("game_id") == game_id
                           and m.get("code") == "server_restarting", None, timeout)


def one_hang(game, first, second, cycle):
    """One hang on `first` (where `game` is played); (seconds to the room's giving up, seconds
    to the first move on `second`)."""
    snap = game.snapshot()
    side, move = snap["to_move"], snap["legal"][0]
    client, rid = game.players()[side], game._id("move")

    first.proc.send_signal(signal.SIGUSR2)
    faults.wait_until(lambda: "fault: the writer hangs" in first.log_text(), 5, "the hang armed")
    hung_at = time.monotonic()
    client.send({"type": "move", "id": rid, "game_id": game.game_id, "move": move})
    faults.wait_until(lambda: faults.readiness(first)[0] == "store_unwritable", LEASE_S * 2,
                      f"hang {cycle}: /readyz saying store_unwritable while the writer hangs")
    unready = time.monotonic() - hung_at
    told_to_go(game.white, game.game_id, GIVEN_UP_BY_S + 5)
    given_up = time.monotonic() - hung_at
    check(given_up <= GIVEN_UP_BY_S, f"hang {cycle}: the room gave the game up after "
          f"{given_up:.2f} s, beyond {GIVEN_UP_BY_S:.2f} s")
    log = first.log_text()
    check("renews no lease" in log, f"hang {cycle}: node {first.name} did not say it stopped "
          "renewing its leases")

    game.reconnect(port=second.port)
    game.play(1)
    moved = time.monotonic() - hung_at
    game.play(1)

    first.proc.send_signal(signal.SIGUSR2)
    faults.wait_until(lambda: "fault: the writer answers again" in first.log_text(), 5,
                      "the hang lifted")
    to_ready = faults.await_readiness(first, "ready", 10)
    print(f"hang {cycle}: /readyz store_unwritable after {unready:.2f} s; the room gave the game "
          f"up after {given_up:.2f} s; the first move on {second.name} acknowledged after "
          f"{moved:.2f} s; {first.name} ready {to_ready:.2f} s after its writer answered again")
    return given_up, moved


def run(suite):
    started = time.monotonic()
    postgres = faults.PrivatePostgres(suite, os.path.join(suite.work, "pg"))
    redis = faults.Redis(suite)
    nodes = [cluster_node(suite, "n1", postgres, redis, program="chessence-fault-server")]
    nodes.append(cluster_node(suite, "n2", postgres, redis))
    check(faults.await_readiness(nodes[0], "ready", 5) < 5, "/readyz before any fault")
    gave_up, moved = [], []
    for cycle in range(1, (3 if suite.long else 1) + 1):
        # Each hang on the fault server, with a game of its own started there.
        game = faults.Game(nodes[0].port, label=f"game {cycle}")
        game.play(3)
        given_up, first_move = one_hang(game, nodes[0], nodes[1], cycle)
        gave_up.append(given_up)
        moved.append(first_move)
        game.check_snapshot()
        game.check_record(nodes[1])
        game.check_record(nodes[0])  # the same record, read by the node that was hung
        game.close()
        print(f"game {cycle}: {len(game.acked)} acknowledged moves, all stored once and in order")
    for node in nodes:
        check(node.stop() == 0, f"{node.name} did not stop cleanly")
    if len(gave_up) > 1:
        print(f"the game given up: median {statistics.median(gave_up):.2f} s, max "
              f"{max(gave_up):.2f} s; moved on the other node: median "
              f"{statistics.median(moved):.2f} s, max {max(moved):.2f} s")
    print(f"{time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    faults.main(run)
