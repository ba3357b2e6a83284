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
import struct
import tempfile
import threading
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


def all_threads_stopped(pid):
    """Whether every thread of process `pid` is stopped (state T in /proc); a gone process counts
    as stopped."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return True
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/stat") as stat:
                # "pid (comm) S ...": the state follows the last ')', as comm may hold one
                state = stat.read().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, IndexError):
            continue
        if state not in ("T", "t", "Z", "X"):
            return False
    return True


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

    def pause(self, timeout=5):
        """SIGSTOP, returning once every thread of the process is stopped: kill() returns while
        threads on other cores may still run for a moment, and a frame sent in that moment would
        be served by a process the test believes stopped."""
        self.proc.send_signal(signal.SIGSTOP)
        deadline = time.monotonic() + timeout
        while not all_threads_stopped(self.proc.pid):
            if time.monotonic() > deadline:
                raise Failure(f"process {self.proc.pid} did not stop within {timeout} s")
            time.sleep(0.002)

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

    def __init__(self, suite, name, args=(), db=None, preexec_fn=None, program="chessence-server",
                 port=None, clock_skew_ms=0):
        """`program` "chessence-fault-server" is the server with fault points (fault_server.cpp);
        `port` reuses a port (a node started again after it was killed); `clock_skew_ms` sets the
        node's own clock that many ms off (CHESSENCE_FAULT_CLOCK_SKEW_MS: the fault server
        only)."""
        check(not clock_skew_ms or program == "chessence-fault-server",
              f"{name}: a clock skew needs chessence-fault-server")
        self.clock_skew_ms = clock_skew_ms
        env = {**os.environ, "CHESSENCE_FAULT_CLOCK_SKEW_MS": str(clock_skew_ms)} \
            if clock_skew_ms else None
        self.port = port or free_port()
        self.db = db or os.path.join(suite.work, f"{name}.db")
        argv = [os.path.join(suite.bin_dir, program), "--bind", HOST, "--port",
                str(self.port), "--db", self.db, "--web-root",
                os.path.join(SOURCE_DIR, "web-client"), *args]
        self.args, self.program = args, program
        super().__init__(suite, name, argv, preexec_fn=preexec_fn, env=env)
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


class PrivatePostgres:
    """A PostgreSQL server in `folder` (tests/support/postgres.sh start), listening on a Unix socket
    there. Registered with the suite as one of its processes: its log is shown when the test fails,
    and the suite's end stops it (SIGCONT first: it may be paused)."""

    def __init__(self, suite, folder):
        self.name, self.folder = "postgres", folder
        self.log_path = os.path.join(folder, "server.log")
        # As root the server runs as `postgres`, who must reach the folder through the suite's.
        os.chmod(suite.work, 0o755)
        script = os.path.join(SOURCE_DIR, "tests", "support", "postgres.sh")
        done = subprocess.run([script, "start", folder], capture_output=True, text=True)
        check(done.returncode == 0, f"cannot start PostgreSQL in {folder}: "
              f"{(done.stdout + done.stderr)[-2000:]}")
        with open(os.path.join(folder, "data", "postmaster.pid")) as pid_file:
            self.postmaster = int(pid_file.readline())
        self.uri = f"postgresql://postgres@/chessence_tests?host={folder}"
        suite.processes.append(self)

    def children(self):
        """The postmaster's processes: its backends and its helpers (checkpointer, WAL writer…)."""
        pids = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile
            if parent == self.postmaster:
                pids.append(int(entry))
        return pids

    def signal_all(self, number):
        for pid in [self.postmaster, *self.children()]:
            try:
                os.kill(pid, number)
            except ProcessLookupError:
                pass

    def pause(self):
        """Every process stopped; the postmaster first, so that nothing new starts unstopped."""
        os.kill(self.postmaster, signal.SIGSTOP)
        self.signal_all(signal.SIGSTOP)
        processes = [self.postmaster, *self.children()]
        wait_until(lambda: all(all_threads_stopped(pid) for pid in processes), 5,
                   "PostgreSQL's processes stopped", interval=0.002)
        return len(processes)

    def resume(self):
        self.signal_all(signal.SIGCONT)

    def log_text(self):
        try:
            with open(self.log_path, errors="replace") as log:
                return log.read()
        except OSError:
            return ""

    def kill(self):
        """Immediate shutdown (SIGQUIT to the postmaster), waited for; the folder stays."""
        self.resume()
        try:
            os.kill(self.postmaster, signal.SIGQUIT)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                os.kill(self.postmaster, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)


class PostgresHold:
    """A proxy on a Unix socket of its own between a node and a PrivatePostgres that can hold the
    node right after its fence check (issue 42: faults "at chosen points"). It reads the node's
    side of PostgreSQL's wire protocol: a statement prepared with "FOR SHARE" in its text is a
    fence check (server/store/sql_text.cpp's share_lock), and once `arm(on_hold)` was called, the
    first execution of one (its Bind … Sync) goes through to the server, which runs it and takes
    the game's row lock, and then `on_hold()` runs (say, SIGSTOP the node) and nothing more of that
    connection reaches the server until `release()`: its transaction stays open, the lock held,
    as when a node stops between its check and its COMMIT. A node that closes meanwhile leaves its
    server connection open until then."""

    def __init__(self, suite, postgres, folder):
        os.makedirs(folder, exist_ok=True)
        os.chmod(folder, 0o755)
        self.target = os.path.join(postgres.folder, ".s.PGSQL.5432")
        self.uri = postgres.uri.replace(f"host={postgres.folder}", f"host={folder}")
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(os.path.join(folder, ".s.PGSQL.5432"))
        self.listener.listen(64)
        self.lock = threading.Lock()
        self.on_hold = None
        self.held = threading.Event()
        self.released = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def arm(self, on_hold):
        with self.lock:
            self.on_hold = on_hold
            self.held.clear()
            self.released.clear()

    def release(self):
        self.released.set()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                server.connect(self.target)
            except OSError:
                client.close()
                continue
            threading.Thread(target=self._to_server, args=(client, server), daemon=True).start()
            threading.Thread(target=self._to_client, args=(server, client), daemon=True).start()

    @staticmethod
    def _read(sock, n):
        data = b""
        while len(data) < n:
            chunk = sock.recv(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    def _to_client(self, server, client):
        try:
            while True:
                data = server.recv(65536)
                if not data:
                    break
                client.sendall(data)
        except OSError:
            pass
        finally:
            try:
                client.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    def _to_server(self, client, server):
        fences, holding = set(), False
        try:
            # Untyped first: the startup message (after an SSL or GSS request, which is refused).
            while True:
                length = struct.unpack("!i", self._read(client, 4))[0]
                body = self._read(client, length - 4)
                server.sendall(struct.pack("!i", length) + body)
                if struct.unpack("!i", body[:4])[0] not in (80877103, 80877104):
                    break
            while True:
                kind = self._read(client, 1)
                length = struct.unpack("!i", self._read(client, 4))[0]
                body = self._read(client, length - 4)
                if kind == b"P":  # Parse: statement name, query text
                    name, query = body.split(b"\0")[:2]
                    if b"FOR SHARE" in query:
                        fences.add(name)
                elif kind == b"B":  # Bind: portal, statement name
                    statement = body.split(b"\0")[1]
                    with self.lock:
                        if statement in fences and self.on_hold and not holding:
                            holding, self.on_hold, on_hold = True, None, self.on_hold
                server.sendall(kind + struct.pack("!i", length) + body)
                if kind == b"S" and holding:
                    on_hold()
                    self.held.set()
                    self.released.wait()
                    holding = False
        except (EOFError, OSError):
            if holding:
                self.released.wait()  # the node went: its transaction stays open until release
        finally:
            for sock in (client, server):
                try:
                    sock.close()
                except OSError:
                    pass


class Redis(Process):
    """A Redis server of this test's own on 127.0.0.1 and a free port, keeping nothing on disk (the
    cluster's leases, lobby and relay)."""

    def __init__(self, suite, name="redis"):
        self.port = free_port()
        self.url = f"redis://{HOST}:{self.port}"
        super().__init__(suite, name, ["redis-server", "--bind", HOST, "--port", str(self.port),
                                       "--save", "", "--appendonly", "no"])
        wait_until(lambda: not self.alive() or "Ready to accept connections" in self.log_text(),
                   15, f"{name} ready")
        check(self.alive(), f"{name} exited at start: {self.log_text()[-2000:]}")


class Suite:
    """One test's processes and folder; everything it started is stopped at the end."""

    def __init__(self, bin_dir, long):
        self.bin_dir = bin_dir
        self.long = long
        self.work = tempfile.mkdtemp(prefix="chessence-faults-")
        self.processes = []

    def node(self, name="node", args=(), **kwargs):
        return Node(self, name, args, **kwargs)

    def restart(self, node, **kwargs):
        """A new process of `node` (killed or stopped) on its port and database (and with its
        clock skew unless `clock_skew_ms` says otherwise)."""
        kwargs.setdefault("clock_skew_ms", node.clock_skew_ms)
        return Node(self, node.name + "-again", node.args, db=node.db, port=node.port,
                    program=node.program, **kwargs)

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


def refused_while_broken(game, node, what):
    """With the node's disk broken: the next move is answered internal_error, /readyz says 503
    store_unwritable within 2 s (and why) and still does 1.5 s later, after the node tried again.
    Returns the seconds to 503 and /readyz's body."""
    refused = game.move()
    check(refused.get("code") == "internal_error",
          f"{what}: a move was answered {refused}, not internal_error")
    unready = await_readiness(node, "store_unwritable", 2)
    _, body = readiness(node)
    check(body.get("error"), f"{what}: /readyz says why not in {body}")
    time.sleep(1.5)  # tried again meanwhile, and still broken
    check(readiness(node)[0] == "store_unwritable",
          f"{what}: /readyz changed its mind while the disk was still broken")
    return unready, body


def await_readiness(node, wanted, timeout):
    """Seconds until /readyz says `wanted`; fails after `timeout`."""
    started = time.monotonic()
    wait_until(lambda: readiness(node)[0] == wanted, timeout, f"/readyz saying {wanted}")
    return time.monotonic() - started


class Game:
    """Two guests playing one Chessence game on a node's `port`, White's seek accepted by Black;
    `acked` holds every move the server acknowledged, in order. Each step reads the game anew (a
    watch), so it follows whatever the server says the position is after a fault."""

    def __init__(self, port, label="game", clock=None):
        """`clock`, when set, is the seek's time control ({"initial": s, "increment": s})."""
        self.port, self.label = port, label
        self.white, self.white_welcome = connect(port, f"{label} white", name="White")
        self.black, self.black_welcome = connect(port, f"{label} black", name="Black")
        seek = {"type": "seek_create", "id": "seek", "variant": "chessence", "side": "white"}
        if clock:
            seek["clock"] = clock
        self.white.send(seek)
        seek = self.white.wait_for(of_type("seek_created"), "seek")["seek"]
        self.black.send({"type": "seek_accept", "id": "accept", "seek_id": seek["seek_id"]})
        self.game_id = self.black.wait_for(of_type("game_started"), "accept")["game_id"]
        self.white.wait_for(of_type("game_started"))
        self.acked = []
        self.requests = 0

    def players(self):
        return {"white": self.white, "black": self.black}

    def reconnect(self, port=None):
        """Both players again on new connections (after their node died), with their tokens."""
        self.port = port or self.port
        for client in (self.white, self.black):
            try:
                client.sock.close()
            except OSError:
                pass
        self.white, _ = connect(self.port, f"{self.label} white", token=self.white_welcome["token"])
        self.black, _ = connect(self.port, f"{self.label} black", token=self.black_welcome["token"])

    def _id(self, what):
        self.requests += 1
        return f"{what}{self.requests}"

    def snapshot(self, client=None):
        """The game as a watch shows it now (asked on each player's connection in turn, so that
        neither meets the message rate first)."""
        client = client or (self.white if self.requests % 2 else self.black)
        rid = self._id("watch")
        client.send({"type": "watch", "id": rid, "game_id": self.game_id})
        return client.wait_for(lambda m: m.get("type") == "snapshot" and m.get("id") == rid, rid)

    def mover_thinking(self, what):
        """The side to move, with its clock running (checked, `what` naming the try): its first
        legal move, the time it had left, its connection and a request id for the move."""
        snap = self.snapshot()
        side, move = snap["to_move"], snap["legal"][0]
        check(snap["clock"]["running"] == side, f"{what}: {side}'s clock does not run: {snap}")
        return side, move, snap["clock"][side], self.players()[side], self._id("move")

    def answer(self, client, rid, timeout=15.0):
        """The direct reply to request `rid`: an ack or an error (never raised)."""
        return client.wait_for(lambda m: m.get("id") == rid, None, timeout)

    def move(self):
        """The side to move plays its first legal move; the reply (an ack or an error)."""
        snap = self.snapshot()
        check(snap.get("result") is None, f"{self.label}: the game is over: {snap.get('result')}")
        side, move = snap["to_move"], snap["legal"][0]
        client, rid = self.players()[side], self._id("move")
        client.send({"type": "move", "id": rid, "game_id": self.game_id, "move": move})
        reply = self.answer(client, rid)
        if reply.get("type") == "ack":
            self.acked.append(move)
        return reply

    def resign(self):
        """The side to move resigns; the reply."""
        side = self.snapshot()["to_move"]
        client, rid = self.players()[side], self._id("resign")
        client.send({"type": "resign", "id": rid, "game_id": self.game_id})
        return self.answer(client, rid)

    def play(self, plies):
        """`plies` moves, each of which must be acknowledged."""
        for _ in range(plies):
            reply = self.move()
            check(reply.get("type") == "ack",
                  f"{self.label}: move {len(self.acked) + 1} refused: {reply}")

    def check_snapshot(self):
        """Both players' snapshots hold exactly the acknowledged moves."""
        for client in (self.white, self.black):
            moves = self.snapshot(client)["moves"]
            check(moves == self.acked, f"{client.label} sees moves {moves}, acknowledged were "
                  f"{self.acked}")

    def close(self):
        for client in (self.white, self.black):
            try:
                client.close()
            except OSError:
                pass  # the server closed first

    def record(self, port=None):
        """The game as GET /api/games/<id> shows it (its moves, result…)."""
        status, _, body = http(port or self.port, f"/api/games/{self.game_id}")
        check(status == 200, f"{self.label}: GET /api/games/{self.game_id} answered {status}")
        return json.loads(body)

    def check_record(self, node=None):
        """The record (on `node`, a Node or a port; the game's own port by default) holds every
        acknowledged move exactly once and in order, and nothing else."""
        moves = self.record(getattr(node, "port", node))["moves"]
        check(moves == self.acked, f"{self.label}: the record's moves {moves} are not the "
              f"acknowledged ones {self.acked}")
