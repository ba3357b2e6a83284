#!/usr/bin/env python3
"""A relayed player follows a frozen owner's game to its new owner (issue 42, finding 14: "Owner
SIGSTOPped 45 s: the game moved to node 2 at 28 s, yet Black, connected to node 2, heard nothing
until 45 s"). Two cluster nodes on one PostgreSQL and one Redis of this test's own, leases of 1 s.
A game starts on node 1, which owns it; White stays there and moves, Black goes to node 2, whose
relay carries Black's requests to node 1. Node 1 is stopped with SIGSTOP: it still subscribes to
its channel, so Redis counts it as listening, but its leases run out. Black, still connected to
node 2, is told server_restarting for the game within a lease and a few relay sweeps, asks again
and is served by node 2 (which takes the game), and plays there with White, who comes over on a
new connection, all while node 1 is stopped. White's move sent to node 1 during the pause is
refused after SIGCONT (node 1 lost the game), and the record holds every acknowledged move once,
in order.

    python3 frozen_owner_test.py --bin BUILD/bin [--long]   (--long: three pauses, p50/max)
"""
import os
import socket
import statistics
import time

import faults
from faults import check, connect

LEASE_S = 1.0
# The lease runs out (a lease after its last renewal), the relay's sweep on node 2 finds it (every
# half second), and the word reaches Black; a second of slack.
TOLD_BY_S = LEASE_S + 0.5 + 1.5
# Black's watch again: node 2 takes the lease and claims the game in the store, or has adopted it.
SERVED_BY_S = 5.0


def cluster_node(suite, name, postgres, redis):
    return suite.node(name, db=postgres.uri,
                      args=["--redis", redis.url, "--node-id", name,
                            "--lease-ms", str(int(LEASE_S * 1000))])


def heard(client, wanted, timeout):
    """The first message for which wanted(message) holds within `timeout` seconds, else None.
    (The socket waits half a second at most each time: the server's pings, every 3 s, are
    answered inside receive(), which with a longer wait would never return to the deadline.)"""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        client.sock.settimeout(min(0.5, max(0.05, deadline - time.monotonic())))
        try:
            message = client.receive()
        except socket.timeout:
            continue
        if wanted(message):
            return message
    return None


def watch_until_served(game, client, timeout):
    """Black's watch, asked again every 250 ms while the game moves (server_restarting): the
    snapshot."""
    deadline = time.monotonic() + timeout
    while True:
        rid = game._id("watch")
        client.send({"type": "watch", "id": rid, "game_id": game.game_id})
        reply = heard(client, lambda m, rid=rid: m.get("id") == rid,
                      max(0.5, deadline - time.monotonic()))
        check(reply is not None, f"{game.label}: Black's watch on node 2 was not answered")
        if reply.get("type") == "snapshot":
            return reply
        check(reply.get("code") == "server_restarting" and time.monotonic() < deadline,
              f"{game.label}: Black's watch on node 2 answered {reply}")
        time.sleep(0.25)


def one_pause(game, first, second, cycle):
    """Node 1 (`first`, the owner) stopped with Black relayed from `second`, White to move:
    (seconds until Black was told, seconds until node 2 served Black's watch)."""
    # Black goes to node 2 (its token: the same player); its watch there is relayed to node 1.
    black, _ = connect(second.port, f"{game.label} black on {second.name}",
                       token=game.black_welcome["token"])
    game.black.close()
    game.black = black
    snap = game.snapshot(black)
    check(snap["moves"] == game.acked, f"{game.label}: Black's relayed snapshot {snap['moves']}")
    check(snap["to_move"] == "white", f"{game.label}: White is to move: {snap}")
    white_on_first = game.white

    first.pause()
    paused_at = time.monotonic()
    try:
        # A late write: White's move sent to the stopped owner (the kernel takes the frame).
        white_on_first.send({"type": "move", "id": "late", "game_id": game.game_id,
                             "move": snap["legal"][0]})

        # Black, connected to node 2, hears that the game's room at node 1 is lost to it.
        told = heard(black, lambda m: m.get("type") == "error" and m.get("code") ==
                     "server_restarting" and m.get("game_id") == game.game_id, TOLD_BY_S)
        check(told is not None, f"pause {cycle}: Black, relayed to the stopped owner, was not "
              f"told server_restarting within {TOLD_BY_S} s")
        told = time.monotonic() - paused_at
        snap = watch_until_served(game, black, SERVED_BY_S)
        served = time.monotonic() - paused_at
        check(snap["moves"] == game.acked, f"pause {cycle}: node 2's snapshot {snap['moves']}, "
              f"acknowledged were {game.acked}")

        # The game goes on at node 2 while node 1 is stopped: White comes over, both play.
        white, _ = connect(second.port, f"{game.label} white on {second.name}",
                           token=game.white_welcome["token"])
        game.white = white
        game.play(3)  # White, Black, White: Black to move at node 2
        check(first.alive() and time.monotonic() - paused_at < 20,
              f"pause {cycle}: node 1 stayed stopped")
    finally:
        first.resume()
    paused = time.monotonic() - paused_at

    # Node 1 wakes without the game: its late move is refused (by node 1, which lost the lease,
    # or by node 2, where it is not White's turn), not stored.
    late = heard(white_on_first, lambda m: m.get("id") == "late", 10)
    check(late is not None, f"pause {cycle}: the move sent to the stopped owner was not answered")
    check(late.get("type") == "error", f"pause {cycle}: the move sent to the stopped owner was "
          f"answered {late}")
    white_on_first.close()
    print(f"pause {cycle}: node {first.name} stopped {paused:.2f} s; Black on {second.name} told "
          f"after {told:.2f} s, served there after {served:.2f} s; the late move answered "
          f"{late.get('code')}")
    return told, served


def run(suite):
    started = time.monotonic()
    postgres = faults.PrivatePostgres(suite, os.path.join(suite.work, "pg"))
    redis = faults.Redis(suite)
    second = cluster_node(suite, "n2", postgres, redis)
    told, served = [], []
    for cycle in range(1, (3 if suite.long else 1) + 1):
        first = cluster_node(suite, f"n1-{cycle}", postgres, redis)
        game = faults.Game(first.port, label=f"game {cycle}")  # created on node 1: it owns it
        game.play(2)  # both moved: White to move
        times = one_pause(game, first, second, cycle)
        told.append(times[0])
        served.append(times[1])
        game.check_snapshot()
        game.check_record(second)
        game.check_record(first)  # the same record, read by the node that was stopped
        game.close()
        check(first.stop() == 0, f"{first.name} did not stop cleanly")
        print(f"game {cycle}: {len(game.acked)} acknowledged moves, all stored once and in order")
    check(second.stop() == 0, "n2 did not stop cleanly")
    if len(told) > 1:
        print(f"Black told: median {statistics.median(told):.2f} s, max {max(told):.2f} s; "
              f"served on node 2: median {statistics.median(served):.2f} s, max "
              f"{max(served):.2f} s")
    print(f"{time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    faults.main(run)
