#!/usr/bin/env python3
"""A small protocol-v1 client (standard library only) for the Docker self-hosting test.

  ws_play.py --port P healthz                 GET /healthz answers 200 {"status": "ok"}, GET / a page
  ws_play.py --port P puzzles                 the image's puzzle bank is served: puzzles of every
                                              game, a daily one of each
  ws_play.py --port P play --state FILE       two guests: seek, accept, two moves; saves what to check
  ws_play.py --port P verify --state FILE     the game of FILE is still there, over HTTP and WebSocket
  ws_play.py --port P linger --seconds N      stays connected; succeeds when the server closes the
                                              connection within N s (run it across `docker stop`)
  ws_play.py --port P crowd --most N          N WebSockets from this address are let in together,
                                              one more is refused with 429 and a JSON error
"""
import argparse
import json
import os
import socket
import sys
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from ws_client import HOST, TIMEOUT, Failure, WebSocket, connect, move_event, of_type  # noqa: E402


def http_json(port, path):
    with urllib.request.urlopen(f"http://{HOST}:{port}{path}", timeout=TIMEOUT) as response:
        if response.status != 200:
            raise Failure(f"GET {path} answered {response.status}")
        return json.loads(response.read())


def healthz(port):
    body = http_json(port, "/healthz")
    if body.get("status") != "ok":
        raise Failure(f"/healthz answered {body}")
    with urllib.request.urlopen(f"http://{HOST}:{port}/", timeout=TIMEOUT) as response:
        page = response.read().decode("utf-8", "replace")
        kind = response.headers.get("Content-Type", "")
    if response.status != 200 or "text/html" not in kind or "<title>" not in page.lower():
        raise Failure(f"GET / answered {response.status} {kind!r}: {page[:200]!r}")
    print("healthz: ok; the web client is served")


def puzzles(port):
    counts = http_json(port, "/api/puzzles")["games"]
    for game in ("chessence", "chesica", "sniderman"):
        if counts.get(game, 0) < 1:
            raise Failure(f"no {game} puzzles: /api/puzzles answered {counts}")
        daily = http_json(port, f"/api/puzzles/{game}/daily")
        if daily.get("game") != game or not daily.get("solution") or not daily.get("fen"):
            raise Failure(f"/api/puzzles/{game}/daily answered {daily}")
    print(f"puzzles: {counts}")


def play(port, state_file):
    ann, ann_welcome = connect(port, "Ann", name="Ann")
    bob, bob_welcome = connect(port, "Bob", name="Bob")
    ann.send({"type": "seek_create", "id": "seek", "variant": "chessence", "side": "white"})
    seek = ann.wait_for(of_type("seek_created"), "seek")["seek"]
    bob.send({"type": "seek_accept", "id": "accept", "seek_id": seek["seek_id"]})
    started = {"Bob": bob.wait_for(of_type("game_started"), "accept"),
               "Ann": ann.wait_for(of_type("game_started"))}
    game_id = started["Ann"]["game_id"]
    if started["Bob"]["game_id"] != game_id or started["Ann"]["you"] != "white":
        raise Failure(f"game_started disagrees: {started}")
    ann.send({"type": "watch", "id": "watch", "game_id": game_id})
    snapshot = ann.wait_for(lambda m: m.get("type") == "snapshot" and m.get("game_id") == game_id,
                            "watch")
    if snapshot["moves"] or snapshot["to_move"] != "white" or not snapshot["legal"]:
        raise Failure(f"a new game should start empty with white to move: {snapshot}")

    played = []
    legal, players = snapshot["legal"], {"white": ann, "black": bob}
    for ply, side in ((1, "white"), (2, "black")):
        players[side].send({"type": "move", "id": f"move{ply}", "game_id": game_id,
                            "move": legal[0]})
        seen = [c.wait_for(move_event(game_id, ply), f"move{ply}" if c is players[side] else None)
                for c in (ann, bob)]
        event = seen[0]["event"]
        if seen[1]["event"] != event or event["by"] != side:
            raise Failure(f"move events disagree: {seen}")
        played.append(event["move"])
        legal = event["legal"]
    print(f"game {game_id}: played {played}")
    with open(state_file, "w") as out:
        json.dump({"game_id": game_id, "moves": played, "bob_token": bob_welcome["token"],
                   "bob_id": bob_welcome["player"]["id"]}, out)
    ann.close()
    bob.close()


def verify(port, state_file):
    with open(state_file) as f:
        state = json.load(f)
    game_id, moves = state["game_id"], state["moves"]
    record = http_json(port, f"/api/games/{game_id}")
    if record.get("game_id") != game_id or record.get("moves") != moves:
        raise Failure(f"/api/games/{game_id} shows {record}, expected moves {moves}")
    bob, welcome = connect(port, "Bob again", token=state["bob_token"])
    if welcome["player"]["id"] != state["bob_id"] or game_id not in welcome.get("games", []):
        raise Failure(f"Bob's identity or unfinished game was not restored: {welcome}")
    bob.send({"type": "watch", "id": "watch", "game_id": game_id})
    snapshot = bob.wait_for(lambda m: m.get("type") == "snapshot" and m.get("game_id") == game_id,
                            "watch")
    if snapshot["moves"] != moves:
        raise Failure(f"the snapshot shows moves {snapshot['moves']}, expected {moves}")
    bob.close()
    print(f"game {game_id}: still there with moves {moves}")


def linger(port, seconds):
    client, _ = connect(port, "Lingerer", name="Lingerer")
    print("lingering", flush=True)
    client.wait_closed(seconds)
    print("the server closed the connection")


def crowd(port, most):
    open_sockets = []
    try:
        for i in range(most):
            open_sockets.append(WebSocket(port, f"connection {i + 1}"))
        try:
            extra = WebSocket(port, f"connection {most + 1}")
            extra.close()
            raise Failure(f"connection {most + 1} from one address was let in")
        except Failure as refused:
            if "429" not in str(refused):
                raise
        # The refusal's body says why, as the nodes' own refusals do.
        sock = socket.create_connection((HOST, port), timeout=TIMEOUT)
        sock.sendall((f"GET /ws HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
                      "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        answer = b""
        while True:
            data = sock.recv(65536)
            if not data:
                break
            answer += data
        sock.close()
        head, _, body = answer.partition(b"\r\n\r\n")
        if b" 429 " not in head.split(b"\r\n")[0] + b" " or "error" not in json.loads(body):
            raise Failure(f"the refusal was {answer[:200]!r}")
        print(f"{most} connections from one address let in, the next refused with 429")
    finally:
        for ws in open_sockets:
            ws.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("command", choices=["healthz", "puzzles", "play", "verify", "linger", "crowd"])
    parser.add_argument("--state")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--most", type=int, default=30)
    args = parser.parse_args()
    try:
        if args.command == "healthz":
            healthz(args.port)
        elif args.command == "puzzles":
            puzzles(args.port)
        elif args.command == "play":
            play(args.port, args.state)
        elif args.command == "linger":
            linger(args.port, args.seconds)
        elif args.command == "crowd":
            crowd(args.port, args.most)
        else:
            verify(args.port, args.state)
    except (Failure, OSError, ValueError, KeyError) as error:
        print(f"ws_play {args.command}: {type(error).__name__}: {error}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
