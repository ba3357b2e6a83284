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
import base64
import hashlib
import json
import os
import socket
import struct
import sys
import time
import urllib.request

HOST = "127.0.0.1"
TIMEOUT = 15.0
WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Failure(Exception):
    pass


class WebSocket:
    """One client connection to /ws: masked text frames out, JSON messages in."""

    def __init__(self, port, label):
        self.label = label
        self.sock = socket.create_connection((HOST, port), timeout=TIMEOUT)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET /ws HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self._recv_some()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0] + " ":
            raise Failure(f"{label}: handshake answered {lines[0]!r}")
        headers = {k.strip().lower(): v.strip() for k, v in
                   (line.split(":", 1) for line in lines[1:] if ":" in line)}
        expected = base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()
        if headers.get("sec-websocket-accept") != expected:
            raise Failure(f"{label}: wrong Sec-WebSocket-Accept")

    def _recv_some(self):
        data = self.sock.recv(65536)
        if not data:
            raise Failure(f"{self.label}: connection closed by the server")
        return data

    def _take(self, n):
        while len(self.buffer) < n:
            self.buffer += self._recv_some()
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def _send_frame(self, opcode, payload):
        header = bytes([0x80 | opcode])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, message):
        self._send_frame(0x1, json.dumps(message).encode())

    def receive(self):
        """The next JSON message; answers pings, fails on a close frame."""
        message = b""
        while True:
            first, second = self._take(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._take(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._take(8))[0]
            mask = self._take(4) if second & 0x80 else None
            payload = self._take(length)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x9:
                self._send_frame(0xA, payload)
            elif opcode == 0x8:
                raise Failure(f"{self.label}: server closed the WebSocket: {payload[2:]!r}")
            elif opcode in (0x0, 0x1, 0x2):
                message += payload
                if first & 0x80:
                    return json.loads(message)

    def wait_for(self, wanted, request_id=None, timeout=TIMEOUT):
        """The first message for which wanted(message) holds; an error answering request_id fails."""
        deadline = time.monotonic() + timeout
        skipped = []
        while time.monotonic() < deadline:
            self.sock.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                message = self.receive()
            except socket.timeout:
                break
            if message.get("type") == "error" and request_id is not None \
                    and message.get("id") == request_id:
                raise Failure(f"{self.label}: request {request_id} failed: {message}")
            if wanted(message):
                return message
            skipped.append(message)
        raise Failure(f"{self.label}: what was awaited did not arrive in {timeout} s; "
                      f"arrived instead: {skipped[-5:]}")

    def wait_closed(self, timeout):
        """Succeeds when the server ends the connection (close frame or EOF) within timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.sock.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                self.receive()
            except socket.timeout:
                break
            except (Failure, OSError):
                return
        raise Failure(f"{self.label}: the server kept the connection open for {timeout} s")

    def close(self):
        try:
            self._send_frame(0x8, struct.pack("!H", 1000))
        finally:
            self.sock.close()


def of_type(kind):
    return lambda m: m.get("type") == kind


def move_event(game_id, ply):
    return lambda m: (m.get("type") == "event" and m.get("game_id") == game_id
                      and m["event"].get("kind") == "move" and m["event"].get("ply") == ply)


def connect(port, label, name=None, token=None):
    client = WebSocket(port, label)
    hello = {"type": "hello", "protocol": 1}
    if name:
        hello["name"] = name
    if token:
        hello["token"] = token
    client.send(hello)
    return client, client.wait_for(of_type("welcome"))


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
