"""A small protocol-v1 client over a WebSocket, standard library only, for the tests that drive a
real server from Python (the Docker test's ws_play.py, the fault suite in tests/faults/)."""
import base64
import hashlib
import json
import os
import socket
import struct
import time

HOST = "127.0.0.1"
TIMEOUT = 15.0
WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Failure(Exception):
    pass


class WebSocket:
    """One client connection to /ws: masked text frames out, JSON messages in."""

    def __init__(self, port, label, headers=(), source=None):
        """Opens /ws on HOST:port; `headers` are (name, value) pairs sent with the upgrade, each
        on a line of its own (a name may repeat); `source`, when set, is the local address to
        connect from (another loopback address, 127.0.0.2, is another client)."""
        self.label = label
        self.sock = socket.create_connection((HOST, port), timeout=TIMEOUT,
                                             source_address=(source, 0) if source else None)
        key = base64.b64encode(os.urandom(16)).decode()
        extra = "".join(f"{name}: {value}\r\n" for name, value in headers)
        request = (f"GET /ws HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                   f"Sec-WebSocket-Version: 13\r\n{extra}\r\n")
        self.sock.sendall(request.encode())
        self.buffer = b""
        self.taken = []
        self.deadline = None  # while set (wait_for, wait_closed), no read waits past it
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
        if self.deadline is not None:
            # Each read waits only for what is left: the server's pings, answered inside
            # receive(), must not keep a wait alive past its deadline.
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout("the deadline passed")
            self.sock.settimeout(left)
        data = self.sock.recv(65536)
        if not data:
            raise Failure(f"{self.label}: connection closed by the server")
        return data

    def _take(self, n):
        while len(self.buffer) < n:
            self.buffer += self._recv_some()
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        self.taken.append(data)
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
            self.taken = []  # this frame's bytes so far: put back if a read times out inside it
            try:
                frame = self._frame()
            except socket.timeout:
                self.buffer = b"".join(self.taken) + self.buffer
                raise
            opcode, fin, payload = frame
            if opcode == 0x9:
                self._send_frame(0xA, payload)
            elif opcode == 0x8:
                raise Failure(f"{self.label}: server closed the WebSocket: {payload[2:]!r}")
            elif opcode in (0x0, 0x1, 0x2):
                message += payload
                if fin:
                    return json.loads(message)

    def _frame(self):
        """One whole frame: (opcode, whether it is the message's last, payload unmasked)."""
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
        return opcode, bool(first & 0x80), payload

    def wait_for(self, wanted, request_id=None, timeout=TIMEOUT):
        """The first message for which wanted(message) holds; an error answering request_id fails."""
        skipped = []
        message = None
        self.deadline = time.monotonic() + timeout
        try:
            while True:
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
        finally:
            self.deadline = None
            self.sock.settimeout(TIMEOUT)
        raise Failure(f"{self.label}: what was awaited did not arrive in {timeout} s; "
                      f"arrived instead: {skipped[-5:]}")

    def wait_closed(self, timeout):
        """Succeeds when the server ends the connection (close frame or EOF) within timeout."""
        self.deadline = time.monotonic() + timeout
        try:
            while True:
                try:
                    self.receive()
                except socket.timeout:
                    break
                except (Failure, OSError):
                    return
        finally:
            self.deadline = None
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


def connect(port, label, name=None, token=None, headers=()):
    """A WebSocket that has said hello, and its welcome."""
    client = WebSocket(port, label, headers)
    hello = {"type": "hello", "protocol": 1}
    if name:
        hello["name"] = name
    if token:
        hello["token"] = token
    client.send(hello)
    return client, client.wait_for(of_type("welcome"))
