#!/usr/bin/env python3
"""A dead node's games are adopted with nobody asking (issue 42, finding 4: "nobody adopts them
until someone asks: no flag falls, no abort"). Two cluster nodes on one PostgreSQL and one Redis
of this test's own, leases of 1 s. On node 1 two games start: a 3+1 game whose players make their
first moves, so White's clock runs, and a 3+1 game where only White moves, so Black is in the
first-move window (30 s). Everyone disconnects and node 1 is SIGKILLed. Nobody asks node 2 about
either game, yet within a bound its HTTP API (which reads the store, loading no room) shows the
first ended on White's flag and the second aborted; each game's clock was not charged for the
detection delay (node 1's death to node 2's adoption, from node 2's log) and charged all the rest
(within 1 s, from the stored clock readings).

    python3 orphan_test.py --bin BUILD/bin [--long]   (--long: five flag games in a row, p50/max)
"""
import os
import statistics
import time

import faults
from faults import check, connect, of_type

LEASE_S = 1.0
CLOCK = {"initial": 3, "increment": 1}
FIRST_MOVE_WINDOW_MS = 30000
# A flag falls once the lag credit White could still be given is used up too (server/game/
# game_clock.h: a gain of 150 + 4 x (initial + 40 x increment) ms, and White, whose first move was
# not timed, has no quota before it): the stored reading says 0 left, this much past it.
FLAG_GRACE_MS = min(1000, 150 + 4 * (CLOCK["initial"] + 40 * CLOCK["increment"]))
# The lease runs out (a lease), a sweep finds the game (within a lease), White's 3 s run out (its
# lag credit at most a second more), and the commit.
FLAG_BY_S = 2 * LEASE_S + 3 + 1 + 2


def cluster_node(suite, name, postgres, redis):
    return suite.node(name, db=postgres.uri,
                      args=["--redis", redis.url, "--node-id", name,
                            "--lease-ms", str(int(LEASE_S * 1000))])


class ClockedGame:
    """Two guests on `port` start a 3+1 game of Chessence (White's seek, Black accepts)."""

    def __init__(self, port, label):
        self.label = label
        self.white, _ = connect(port, f"{label} white", name="White")
        self.black, _ = connect(port, f"{label} black", name="Black")
        self.white.send({"type": "seek_create", "id": "seek", "variant": "chessence",
                         "side": "white", "clock": CLOCK})
        seek = self.white.wait_for(of_type("seek_created"), "seek")["seek"]
        self.black.send({"type": "seek_accept", "id": "accept", "seek_id": seek["seek_id"]})
        started = self.black.wait_for(of_type("game_started"), "accept")
        self.game_id = started["game_id"]
        self.legal = self.black.wait_for(of_type("snapshot"))["legal"]
        self.white.wait_for(of_type("game_started"))
        self.plies = 0

    def move(self):
        """The side to move plays its first legal move, acknowledged."""
        client = self.white if self.plies % 2 == 0 else self.black
        rid = f"m{self.plies}"
        client.send({"type": "move", "id": rid, "game_id": self.game_id, "move": self.legal[0]})
        # The event comes first (the mover's own, echoing its id), then the ack.
        event = client.wait_for(lambda m: m.get("type") == "event"
                                and m.get("game_id") == self.game_id
                                and m["event"].get("kind") == "move", rid)
        client.wait_for(lambda m: m.get("id") == rid and m.get("type") == "ack", rid)
        self.legal = event["event"].get("legal") or event.get("legal")
        check(self.legal, f"{self.label}: no legal moves after ply {self.plies + 1}: {event}")
        self.plies += 1

    def close(self):
        for client in (self.white, self.black):
            try:
                client.close()
            except OSError:
                pass


def stored_events(port, game_id):
    """Every stored event of the game, as a watch with `since` 0 on `port` gives them."""
    client, _ = connect(port, "reader", name="Reader")
    client.send({"type": "watch", "id": "all", "game_id": game_id, "since": 0})
    frame = client.wait_for(lambda m: m.get("type") == "events" and m.get("id") == "all", "all")
    client.close()
    return [entry["event"] for entry in frame["events"]]


def run(suite):
    started = time.monotonic()
    postgres = faults.PrivatePostgres(suite, os.path.join(suite.work, "pg"))
    redis = faults.Redis(suite)
    second = cluster_node(suite, "n2", postgres, redis)
    kill_to_stored = []
    cycles = 5 if suite.long else 1
    for cycle in range(1, cycles + 1):
        first = cluster_node(suite, f"n1-{cycle}", postgres, redis)
        flag = ClockedGame(first.port, f"flag game {cycle}")
        flag.move()
        flag.move()  # both have acted: White's clock runs
        games = [("timeout", flag)]
        if cycle == 1:
            abort = ClockedGame(first.port, "abort game")
            abort.move()  # Black's first-move window runs
            games.append(("aborted", abort))
        for _, game in games:
            game.close()
        first.kill()
        killed = time.time()

        # Nobody asks node 2 about the games: its HTTP API reads the store, loading no room.
        adopted, stored = {}, {}
        deadline = time.monotonic() + FLAG_BY_S + (FIRST_MOVE_WINDOW_MS / 1000 if cycle == 1
                                                   else 0)
        while len(stored) < len(games) and time.monotonic() < deadline:
            log = second.log_text()
            for _, game in games:
                if game.game_id not in adopted and f"game {game.game_id}: adopted" in log:
                    adopted[game.game_id] = time.time()
                if game.game_id not in stored:
                    status, _, body = second.get(f"/api/games/{game.game_id}")
                    check(status == 200, f"{game.label}: GET answered {status}")
                    if faults.json_body(body).get("status") == "finished":
                        stored[game.game_id] = time.time()
            time.sleep(0.05)
        for reason, game in games:
            check(game.game_id in stored, f"{game.label}: no result stored by node 2 within "
                  f"{deadline - time.monotonic() + (time.time() - killed):.1f} s of the kill")
            check(game.game_id in adopted, f"{game.label}: node 2 did not log its adoption")
            result = faults.json_body(second.get(f"/api/games/{game.game_id}")[2])["result"]
            check(result.get("reason") == reason, f"{game.label}: ended {result}, not {reason}")
            detection_ms = (adopted[game.game_id] - killed) * 1000
            events = stored_events(second.port, game.game_id)
            last_move = [e for e in events if e["kind"] == "move"][-1]["clock"]
            over = [e for e in events if e["kind"] == "game_over"][-1]["clock"]
            passed_ms = over["at"] - last_move["at"]
            if reason == "timeout":
                check(over["white"] == 0, f"{game.label}: White's flag fell with "
                      f"{over['white']} ms left")
                charged_ms = last_move["white"] + FLAG_GRACE_MS
            else:
                charged_ms = FIRST_MOVE_WINDOW_MS  # the window ran out, less its refund
            refund_ms = passed_ms - charged_ms
            check(abs(refund_ms - detection_ms) <= 1000,
                  f"{game.label}: {refund_ms:.0f} ms not charged, but the game had no owner for "
                  f"{detection_ms:.0f} ms (the kill to node 2's adoption)")
            print(f"{game.label}: adopted {detection_ms / 1000:.2f} s after the kill, "
                  f"{reason} stored after {stored[game.game_id] - killed:.2f} s; "
                  f"{refund_ms / 1000:.2f} s refunded")
        kill_to_stored.append(stored[flag.game_id] - killed)
    check(second.stop() == 0, "n2 did not stop cleanly")
    if len(kill_to_stored) > 1:
        print(f"kill -> flag result stored: p50 {statistics.median(kill_to_stored):.2f} s, "
              f"max {max(kill_to_stored):.2f} s ({len(kill_to_stored)} games, White had 3 s)")
    print(f"{time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    faults.main(run)
