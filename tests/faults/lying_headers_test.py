"""Clients that lie in their headers, against one node while an honest game goes on: a page from
another site naming its own Origin, a forged X-Forwarded-For from a peer that is no proxy, a
Content-Length far beyond the body limit, one longer than the body that follows (then silence),
a header block beyond the limit, a bad Sec-WebSocket-Key, Content-Length beside Transfer-Encoding
(request smuggling), a chunked body that is not chunked. Each gets a clear answer (status and a
JSON error) or is cut off within the header/body timeout, and the honest game's moves are
acknowledged between every two lies and kept in the record."""
import json
import socket
import threading
import time

from faults import HOST, check, main, welcomed, Game


def exchange(port, raw, timeout=10.0):
    """Sends `raw` bytes, then reads until the server closes or `timeout`; (status, body, seconds)."""
    started = time.monotonic()
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        sock.sendall(raw)
        data = b""
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        except socket.timeout:
            pass
    elapsed = time.monotonic() - started
    if not data:
        return 0, "", elapsed
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), body.decode(errors="replace"), elapsed


def upgrade(port, extra):
    return (f"GET /ws HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n").encode()


KEY = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"


def run(suite):
    node = suite.node(args=["--header-timeout", "2"])
    game = Game(node.port, "honest")
    port = node.port

    def clear_error(status, body, expected, what):
        check(status == expected, f"{what}: answered {status}, expected {expected}: {body[:200]}")
        check("error" in json.loads(body), f"{what}: no JSON error: {body[:200]}")

    lies = {
        "another site's Origin": lambda: clear_error(
            *exchange(port, upgrade(port, KEY + "Origin: https://evil.example\r\n"))[:2], 403,
            "another site's Origin"),
        "a bad Sec-WebSocket-Key": lambda: clear_error(
            *exchange(port, upgrade(port, "Sec-WebSocket-Key: short\r\n"))[:2], 400,
            "a bad Sec-WebSocket-Key"),
        "a Content-Length beyond the limit": lambda: clear_error(
            *exchange(port, b"POST /api/games/x/analysis HTTP/1.1\r\nHost: h\r\n"
                            b"Content-Length: 100000000\r\n\r\n")[:2], 413,
            "a Content-Length beyond the limit"),
        "a header block beyond the limit": lambda: clear_error(
            *exchange(port, b"GET / HTTP/1.1\r\nHost: h\r\nCookie: " + b"a" * 20000 +
                      b"\r\n\r\n")[:2], 431, "a header block beyond the limit"),
        "Content-Length beside Transfer-Encoding": lambda: check(
            exchange(port, b"POST /api/games/x/analysis HTTP/1.1\r\nHost: h\r\nContent-Length: 4"
                           b"\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")[0] == 400,
            "Content-Length beside Transfer-Encoding is not refused 400"),
        "a chunked body that is not chunked": lambda: check(
            exchange(port, b"POST /api/games/x/analysis HTTP/1.1\r\nHost: h\r\n"
                           b"Transfer-Encoding: chunked\r\n\r\nzz\r\nnot a chunk\r\n")[0] == 400,
            "a malformed chunked body is not refused 400"),
    }

    # Promises 50 bytes, sends 10, then nothing, beside everything else: cut off within the body
    # timeout (30 s), no answer owed, and nothing else waits for it.
    short = {}

    def short_body():
        short["answer"] = exchange(
            port, b"POST /api/games/x/analysis HTTP/1.1\r\nHost: h\r\nContent-Length: 50\r\n\r\n"
                  b"0123456789", timeout=45)

    slow = threading.Thread(target=short_body)
    slow.start()

    def forged_address():
        # No --trusted-proxy: a forged X-Forwarded-For is ignored, the peer's own address counts.
        reply = welcomed(port, "forged", headers=[("X-Forwarded-For", "198.51.100.99")])
        check(reply.get("type") == "welcome", f"a forged X-Forwarded-For broke the hello: {reply}")

    lies["a forged X-Forwarded-For"] = forged_address
    for what, lie in lies.items():
        lie()
        reply = game.move()
        check(reply.get("type") == "ack", f"after {what}: the honest move was refused: {reply}")
        check(node.get("/healthz")[0] == 200, f"after {what}: /healthz failed")
    check("chessence_" in node.get("/metrics")[2], "/metrics does not answer")
    slow.join()
    status, _, elapsed = short["answer"]
    check(elapsed < 35, f"a body shorter than its Content-Length held its connection {elapsed:.1f} s")
    game.check_record()
    print(f"{len(lies)} lies answered; a short body cut off after {elapsed:.1f} s; the honest "
          f"game's {len(game.acked)} moves all acknowledged")


if __name__ == "__main__":
    main(run)
