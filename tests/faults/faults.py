"""The fault suite's harness (tests/faults/README.md): real chessence-server processes, and the real
HAProxy, PostgreSQL and Redis of cluster mode, started for one test and faulted on purpose.

A test is a file `<name>_test.py` beside this one, run as
    python3 <name>_test.py --bin BUILD/bin [--long]
with a function `run(suite)` that raises on a broken promise; `main(run)` runs it, prints
"N passed, N failed" and, on a failure, the last lines of every process's log. `--long` (or
FAULTS_LONG=1) asks the test for its benchmark form: minutes instead of seconds, numbers printed.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(SOURCE_DIR, "tests", "support"))
from ws_client import HOST, Failure, WebSocket, connect, of_type  # noqa: E402,F401


def check(condition, message):
    """Fails the test with `message` unless `condition` holds."""
    if not condition:
        raise Failure(message)


def free_port():
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def wait_until(predicate, timeout, what, interval=0.05):
    """Returns predicate()'s first true value within `timeout` seconds; fails naming `what`."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise Failure(f"{what}: not within {timeout} s")
        time.sleep(interval)


def http(port, path, method="GET", headers=None, body=None, timeout=5.0):
    """(status, headers, body text) of one HTTP request to HOST:port; status 0 when it could not
    be sent or was not answered in time."""
    request = urllib.request.Request(f"http://{HOST}:{port}{path}", method=method,
                                     headers=headers or {}, data=body)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()
    except (OSError, urllib.error.URLError):
        return 0, {}, ""


class Process:
    """A child process whose stdout and stderr go to a log file in the suite's folder."""

    def __init__(self, suite, name, argv, **popen):
        self.name = name
        self.log_path = os.path.join(suite.work, f"{name}.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT, **popen)
        suite.processes.append(self)

    def log_text(self):
        with open(self.log_path, errors="replace") as log:
            return log.read()

    def alive(self):
        return self.proc.poll() is None

    def pause(self):
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self):
        self.proc.send_signal(signal.SIGCONT)

    def kill(self):
        if self.alive():
            self.proc.send_signal(signal.SIGCONT)
            self.proc.kill()
        self.proc.wait()

    def stop(self, timeout=15):
        """SIGTERM (the server's drain), SIGKILL after `timeout`; returns the exit code."""
        if self.alive():
            self.proc.send_signal(signal.SIGCONT)
            self.proc.terminate()
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


class Node(Process):
    """One chessence-server on 127.0.0.1 and a port of its own, its database in the suite's folder
    unless `db` says otherwise."""

    def __init__(self, suite, name, args=(), db=None, preexec_fn=None):
        self.port = free_port()
        self.db = db or os.path.join(suite.work, f"{name}.db")
        argv = [os.path.join(suite.bin_dir, "chessence-server"), "--bind", HOST, "--port",
                str(self.port), "--db", self.db, "--web-root",
                os.path.join(SOURCE_DIR, "web-client"), *args]
        super().__init__(suite, name, argv, preexec_fn=preexec_fn)
        wait_until(lambda: not self.alive() or f"listening on {HOST}:{self.port}" in
                   self.log_text(), 30, f"{name} listening")
        check(self.alive(), f"{name} exited at start: {self.log_text()[-2000:]}")

    def get(self, path, **kwargs):
        return http(self.port, path, **kwargs)


class HAProxy(Process):
    """The shipped docker/cluster/haproxy.cfg in front of `nodes`: its global, defaults and frontend
    as they are (the header rules and the limits under test), its backend's servers replaced by
    the nodes on this machine and Docker's resolver left out. It reaches the nodes from
    127.0.0.1; a test whose nodes trust that address as a proxy should send its clients from
    another (`source="127.0.0.3"`), or each client's address is a trusted proxy's and skipped."""

    def __init__(self, suite, nodes, name="haproxy", rewrite=None):
        """`rewrite`, when set, edits the shipped file's text first (a test of another form of a
        rule); `name` tells apart several in one test (their logs and configurations)."""
        self.port = free_port()
        with open(os.path.join(SOURCE_DIR, "docker", "cluster", "haproxy.cfg")) as cfg:
            shipped = cfg.read()
        if rewrite:
            shipped = rewrite(shipped)
        config = []
        section = None
        for line in shipped.splitlines():
            if line and not line[0].isspace() and not line.startswith("#"):
                section = line.split()[0:2]
            if section and section[0] == "resolvers":
                continue
            stripped = line.strip()
            if stripped.startswith("bind "):
                line = f"    bind {HOST}:{self.port}"
            elif stripped.startswith("server "):
                continue
            elif stripped.startswith("default-server "):
                line = re.sub(r"\s+(init-addr|resolvers)\s+\S+", "", line)
            config.append(line)
            if section == ["backend", "nodes"] and stripped.startswith("default-server "):
                config += [f"    server {n.name} {HOST}:{n.port}" for n in nodes]
        path = os.path.join(suite.work, f"{name}.cfg")
        with open(path, "w") as out:
            out.write("\n".join(config) + "\n")
        haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
        check(os.path.exists(haproxy), "no haproxy (Debian package haproxy; scripts/install-deps.sh "
              "--test)")
        parsed = subprocess.run([haproxy, "-c", "-f", path], capture_output=True, text=True)
        check(parsed.returncode == 0, f"the shipped haproxy.cfg, adapted, does not parse: {path}: "
              f"{(parsed.stdout + parsed.stderr)[-2000:]}")
        super().__init__(suite, name, [haproxy, "-db", "-f", path])
        wait_until(lambda: http(self.port, "/healthz")[0] == 200, 30, "haproxy forwarding")


class Suite:
    """One test's processes and folder; everything it started is stopped at the end."""

    def __init__(self, bin_dir, long):
        self.bin_dir = bin_dir
        self.long = long
        self.work = tempfile.mkdtemp(prefix="chessence-faults-")
        self.processes = []

    def node(self, name="node", args=(), **kwargs):
        return Node(self, name, args, **kwargs)

    def haproxy(self, nodes, **kwargs):
        return HAProxy(self, nodes, **kwargs)

    def close(self, keep):
        for process in reversed(self.processes):
            process.kill()
        if not keep:
            shutil.rmtree(self.work, ignore_errors=True)

    def dump_logs(self):
        for process in self.processes:
            tail = process.log_text().splitlines()[-40:]
            print(f"--- last lines of {process.name}'s log ({process.log_path}):")
            print("\n".join(tail))


def main(run):
    """Runs `run(suite)` once; exit 0 when it returned, 1 when it raised."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="the build's bin folder")
    parser.add_argument("--long", action="store_true", help="the benchmark form")
    options = parser.parse_args()
    suite = Suite(options.bin, options.long or os.environ.get("FAULTS_LONG") == "1")
    failed = False
    try:
        run(suite)
    except Exception:  # noqa: BLE001 — any exception is the test's failure, reported whole
        failed = True
        traceback.print_exc()
        suite.dump_logs()
    finally:
        suite.close(keep=failed)
    print(f"{0 if failed else 1} passed, {1 if failed else 0} failed")
    sys.exit(1 if failed else 0)


def welcomed(port, label, headers=(), name=None, source=None):
    """A hello on a new connection (from the local address `source` when set): the welcome
    message, or the error that refused it (the connection is closed either way)."""
    client = WebSocket(port, label, headers, source=source)
    try:
        hello = {"type": "hello", "protocol": 1, "id": "hello"}
        if name:
            hello["name"] = name
        client.send(hello)
        return client.wait_for(lambda m: m.get("type") in ("welcome", "error"))
    finally:
        try:
            client.close()
        except OSError:
            pass  # the server closed first: closed either way


def json_body(text):
    try:
        return json.loads(text)
    except ValueError:
        return None


# --- A broken disk under a node (issue 42, finding 7: disk_full_test.py, read_only_test.py) ------

class Mounted:
    """A file system mounted at `where` for one test (`mount -t FSTYPE -o OPTIONS SOURCE WHERE`),
    unmounted by close() (a `with` block), whatever the test left running on it."""

    def __init__(self, source, where, fstype, options):
        os.makedirs(where, exist_ok=True)
        self.where = where
        done = subprocess.run(["mount", "-t", fstype, "-o", options, source, where],
                              capture_output=True, text=True)
        check(done.returncode == 0, f"cannot mount {fstype} at {where} (the fault suite runs as "
              f"root): {(done.stdout + done.stderr).strip()}")

    def remount(self, options):
        done = subprocess.run(["mount", "-o", f"remount,{options}", self.where],
                              capture_output=True, text=True)
        check(done.returncode == 0, f"mount -o remount,{options} {self.where}: "
              f"{(done.stdout + done.stderr).strip()}")

    def close(self):
        subprocess.run(["umount", self.where], capture_output=True)
        if os.path.ismount(self.where):
            subprocess.run(["umount", "-l", self.where], capture_output=True)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.close()


def fill_disk(folder):
    """Writes `folder`/filler until the file system is full (ENOSPC); returns its path."""
    path = os.path.join(folder, "filler")
    with open(path, "wb", buffering=0) as filler:
        for chunk in (1 << 20, 4096, 512, 1):
            try:
                while True:
                    filler.write(b"\0" * chunk)
            except OSError as error:
                check(error.errno == 28, f"filling {folder}: {error}")  # ENOSPC
    return path


def readiness(node):
    """/readyz's status ("ready", "store_unwritable", …) and its whole body; "" when unanswered."""
    status, _, body = node.get("/readyz", timeout=2)
    parsed = json_body(body) or {}
    check(status == 0 or (status == 200) == (parsed.get("status") == "ready"),
          f"/readyz answered {status} {body}")
    return parsed.get("status", ""), parsed


def await_readiness(node, wanted, timeout):
    """Seconds until /readyz says `wanted`; fails after `timeout`."""
    started = time.monotonic()
    wait_until(lambda: readiness(node)[0] == wanted, timeout, f"/readyz saying {wanted}")
    return time.monotonic() - started


class Game:
    """Two guests, Ann (white) and Bob, playing one chessence game on a node; every move the mover
    saw acknowledged (its event, then its `ack`) is kept in `acknowledged`, in order."""

    def __init__(self, port):
        self.ann, ann_welcome = connect(port, "Ann", name="Ann")
        self.bob, bob_welcome = connect(port, "Bob", name="Bob")
        self.tokens = {"white": ann_welcome["token"], "black": bob_welcome["token"]}
        self.ann.send({"type": "seek_create", "id": "seek", "variant": "chessence",
                       "side": "white"})
        seek = self.ann.wait_for(of_type("seek_created"), "seek")["seek"]
        self.bob.send({"type": "seek_accept", "id": "accept", "seek_id": seek["seek_id"]})
        self.game_id = self.bob.wait_for(of_type("game_started"), "accept")["game_id"]
        self.ann.wait_for(of_type("game_started"))
        self.acknowledged = []
        self.requests = 0
        self.watch()

    def players(self):
        return {"white": self.ann, "black": self.bob}

    def watch(self):
        """Both watch the game; the snapshot's moves must be the acknowledged ones."""
        for client in (self.ann, self.bob):
            client.send({"type": "watch", "id": "watch", "game_id": self.game_id})
            snapshot = client.wait_for(lambda m: m.get("type") == "snapshot"
                                       and m.get("game_id") == self.game_id, "watch")
            check(snapshot["moves"] == self.acknowledged,
                  f"{client.label} sees moves {snapshot['moves']}, acknowledged were "
                  f"{self.acknowledged}")
        self.legal, self.to_move = snapshot["legal"], snapshot["to_move"]
        check(snapshot.get("result") is None and self.legal, f"the game is over: {snapshot}")

    def reconnect(self, port):
        """New connections to `port` with the players' tokens (after a restart), watching again."""
        for client in (self.ann, self.bob):
            try:
                client.close()
            except OSError:
                pass
        self.ann, _ = connect(port, "Ann again", token=self.tokens["white"])
        self.bob, _ = connect(port, "Bob again", token=self.tokens["black"])
        self.watch()

    def move(self):
        """The side to move plays; None when acknowledged, else the error that answered it."""
        ply = len(self.acknowledged) + 1
        self.requests += 1
        request = f"m{self.requests}"
        mover = self.players()[self.to_move]
        move = self.legal[(ply * 7) % len(self.legal)]
        mover.send({"type": "move", "id": request, "game_id": self.game_id, "move": move})
        answer = mover.wait_for(lambda m: (m.get("type") == "error" and m.get("id") == request)
                                or (m.get("type") == "event" and m.get("game_id") == self.game_id
                                    and m["event"].get("ply") == ply))
        if answer["type"] == "error":
            return answer
        mover.wait_for(lambda m: m.get("type") == "ack" and m.get("id") == request)
        event = answer["event"]
        check(event.get("kind") == "move" and event.get("move") == move, f"event {event}")
        other = self.bob if mover is self.ann else self.ann
        other.wait_for(lambda m: m.get("type") == "event" and m.get("game_id") == self.game_id
                       and m["event"].get("ply") == ply)
        self.acknowledged.append(move)
        self.legal, self.to_move = event["legal"], ("black" if self.to_move == "white" else "white")
        return None

    def play(self, plies):
        for _ in range(plies):
            refused = self.move()
            check(refused is None, f"move {len(self.acknowledged) + 1} refused: {refused}")

    def check_record(self, node):
        """The stored record holds every acknowledged move exactly once, in order, and no other."""
        status, _, body = node.get(f"/api/games/{self.game_id}")
        record = json_body(body) or {}
        check(status == 200 and record.get("moves") == self.acknowledged,
              f"/api/games/{self.game_id} answered {status}: moves {record.get('moves')}, "
              f"acknowledged {self.acknowledged}")

    def close(self):
        for client in (self.ann, self.bob):
            try:
                client.close()
            except OSError:
                pass
