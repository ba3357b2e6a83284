"""The tests' WebSocket client (ws_client.py) against a scripted server: a wait ends at its
deadline even while the server pings more often than the wait lasts, and a frame cut by a wait's
deadline is read whole afterwards. Standard library only."""
import base64
import hashlib
import socket
import sys
import threading
import time

sys.path.insert(0, __import__("os").path.dirname(__file__))
import ws_client  # noqa: E402

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class ScriptedServer:
    """Accepts one WebSocket on 127.0.0.1 and runs `script(conn)` after the handshake."""

    def __init__(self, script):
        self.listener = socket.socket()
        self.listener.bind((ws_client.HOST, 0))
        self.listener.listen(1)
        self.port = self.listener.getsockname()[1]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, args=(script,), daemon=True)
        self.thread.start()

    def _serve(self, script):
        conn, _ = self.listener.accept()
        head = b""
        while b"\r\n\r\n" not in head:
            head += conn.recv(4096)
        key = next(line.split(":", 1)[1].strip() for line in head.decode().split("\r\n")
                   if line.lower().startswith("sec-websocket-key:"))
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        conn.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n").encode())
        try:
            script(conn, self.stop)
        except OSError:
            pass
        finally:
            conn.close()


def text_frame(text):
    data = text.encode()
    assert len(data) < 126
    return bytes([0x81, len(data)]) + data


def pings_forever(conn, stop):
    while not stop.is_set():
        conn.sendall(bytes([0x89, 0]))  # a ping, as the server sends every 3 s
        time.sleep(0.2)


def wait_ends_at_its_deadline_while_pinged():
    server = ScriptedServer(pings_forever)
    client = ws_client.WebSocket(server.port, "pinged")
    outcome = []

    def wait():
        started = time.monotonic()
        try:
            client.wait_for(ws_client.of_type("never"), timeout=1.0)
            outcome.append("returned")
        except ws_client.Failure:
            outcome.append(time.monotonic() - started)

    waiter = threading.Thread(target=wait, daemon=True)
    waiter.start()
    waiter.join(10)
    server.stop.set()
    assert outcome, "wait_for(timeout=1.0) still waiting after 10 s while the server pinged"
    assert outcome[0] != "returned", outcome
    assert 0.9 <= outcome[0] < 3.0, f"wait_for(timeout=1.0) gave up after {outcome[0]:.2f} s"
    print(f"wait_for(timeout=1.0) under pings every 0.2 s failed after {outcome[0]:.2f} s")


def cut_frame_is_read_whole_later():
    frame = text_frame('{"type":"late","n":1}')
    cut = threading.Event()

    def script(conn, stop):
        conn.sendall(frame[:7])
        cut.wait(10)
        conn.sendall(frame[7:])
        stop.wait(10)

    server = ScriptedServer(script)
    client = ws_client.WebSocket(server.port, "cut")
    try:
        client.wait_for(ws_client.of_type("late"), timeout=0.5)
        raise AssertionError("a half frame was taken for a message")
    except ws_client.Failure:
        pass
    cut.set()
    message = client.wait_for(ws_client.of_type("late"), timeout=5)
    assert message == {"type": "late", "n": 1}, message
    server.stop.set()
    print("a frame cut by a deadline was read whole after it")


if __name__ == "__main__":
    wait_ends_at_its_deadline_while_pinged()
    cut_frame_is_read_whole_later()
    print("ws_client: ok")
