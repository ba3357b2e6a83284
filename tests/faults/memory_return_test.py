#!/usr/bin/env python3
"""Memory given back (issue 42, finding 18): after many connections came and went, the heap they
used is freed, but glibc keeps it (10 000 idle connections: RSS 15 MB -> 121 MB, and still 121 MB
after all closed with 4.4 MB of the heap in use). The server returns the free heap to the system
on its own (server/memory_return.h), so its resident memory falls back without a restart; the
figures are on GET /metrics."""
import os
import resource
import subprocess
import time

import faults
from faults import HOST, check, wait_until


def resident_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise faults.Failure("no VmRSS in /proc/<pid>/status")


def metric(node, name):
    status, _, text = node.get("/metrics")
    check(status == 200, f"GET /metrics: {status}")
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise faults.Failure(f"no {name} in /metrics")


def connections_come_and_go(suite, node, count, seconds):
    """`count` idle WebSockets held for `seconds` by chessence-load, each from an address of its
    own (X-Forwarded-For from the trusted 127.0.0.1), then closed."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    check(hard >= count + 64, f"the hard open-file limit {hard} cannot hold {count} connections")
    load = subprocess.run(
        [os.path.join(suite.bin_dir, "chessence-load"), "--url", f"ws://{HOST}:{node.port}/ws",
         "--rooms", "0", "--idle", str(count), "--seconds", str(seconds), "--pid",
         str(node.proc.pid)], capture_output=True, text=True, timeout=180,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard)))
    check(load.returncode == 0, f"chessence-load failed: {load.stdout[-800:]}{load.stderr[-800:]}")
    check(f"still connected          {count} of {count}" in load.stdout,
          f"not every connection stayed open: {load.stdout[-800:]}")


def run(suite):
    count = 10000 if suite.long else 5000
    node = suite.node("node", ["--connections-per-ip", "100000", "--connections-total",
                               str(count + 100), "--trusted-proxy", HOST])
    pid = node.proc.pid
    empty = resident_kb(pid)
    rounds = 3 if suite.long else 1
    for round_ in range(rounds):
        connections_come_and_go(suite, node, count, 1)
        peak = resident_kb(pid)
        grown = peak - empty
        check(grown > 20000, f"{count} connections grew RSS by only {grown} kB: nothing to give back")
        closed = time.monotonic()
        # Within two of the server's looks (memory_return_interval, 10 s) at least a third of
        # what the connections took is back with the system.
        wait_until(lambda: node.alive() and resident_kb(pid) <= peak - grown / 3, 25,
                   f"RSS back below {peak - grown / 3:.0f} kB (it was {peak} kB with {count} "
                   f"connections, {empty} kB empty)")
        after = resident_kb(pid)
        print(f"round {round_ + 1}: RSS {empty} kB empty, {peak} kB after {count} connections, "
              f"{after} kB {time.monotonic() - closed:.1f} s after they closed "
              f"({100 * (peak - after) / grown:.0f}% of the growth given back)")
    check(metric(node, "chessence_memory_returns_total") >= 1, "no return counted on /metrics")
    check(metric(node, "chessence_memory_returned_bytes_total") > 0,
          "no bytes counted as given back")
    check("memory:" in node.log_text() and "after giving it back" in node.log_text(),
          "the return is not logged")
    status, _, _ = node.get("/healthz")
    check(status == 200, f"/healthz {status} after the returns")
    node.stop()


if __name__ == "__main__":
    faults.main(run)
