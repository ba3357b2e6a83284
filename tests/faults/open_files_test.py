#!/usr/bin/env python3
"""Out of file descriptors (issue 42, finding 9): the server raises its soft open-file limit to fit
--connections-total; where the hard limit is too low it says so, and when accept fails with EMFILE
the listener backs off and logs about once a second instead of spinning, and serves again as soon
as descriptors are given back."""
import os
import resource
import socket
import time

import faults
from faults import HOST, check, wait_until


def open_files_limit(pid):
    """The soft 'Max open files' of a process, from /proc."""
    with open(f"/proc/{pid}/limits") as limits:
        for line in limits:
            if line.startswith("Max open files"):
                return int(line.split()[3])
    raise faults.Failure("no 'Max open files' in /proc/<pid>/limits")


def cpu_seconds(pid):
    """User + system CPU time the process has used."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def limited(soft, hard):
    return lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def raised_to_fit(suite):
    node = suite.node("raised", ["--connections-total", "2000"], preexec_fn=limited(256, 8192))
    soft = open_files_limit(node.proc.pid)
    check(soft >= 2000 + 256, f"soft open-file limit {soft}: not raised to fit 2000 connections")
    check("open-file limit raised to" in node.log_text(), "the raise is not logged")
    node.stop()


def exhausted(suite):
    limit = 64
    node = suite.node("exhausted", preexec_fn=limited(limit, limit))
    check(f"the open-file limit is {limit}" in node.log_text(),
          "no warning that the hard limit cannot fit --connections-total")
    pid = node.proc.pid
    held = []
    try:
        # More connections than the process can hold: the kernel completes them into the listen
        # backlog, where the server's accept fails with EMFILE again and again.
        for _ in range(limit * 2):
            held.append(socket.create_connection((HOST, node.port), timeout=5))
        log_before = node.log_text().count("accept:")
        cpu_before = cpu_seconds(pid)
        seconds = 10 if suite.long else 3
        time.sleep(seconds)
        lines = node.log_text().count("accept:") - log_before
        cpu = cpu_seconds(pid) - cpu_before
        print(f"out of descriptors for {seconds} s: {lines} accept log line(s), "
              f"{cpu:.2f} CPU-seconds")
        check(0 < lines <= seconds + 2,
              f"{lines} accept log lines in {seconds} s (about one a second expected)")
        check(cpu < 0.5 * seconds, f"{cpu:.2f} CPU-seconds in {seconds} s: the accept loop spins")
        check(node.alive(), "the server died when it ran out of descriptors")
    finally:
        for sock in held:
            sock.close()
    started = time.monotonic()
    wait_until(lambda: node.get("/healthz", timeout=1)[0] == 200, 10,
               "/healthz once the descriptors are given back")
    print(f"/healthz answered {time.monotonic() - started:.2f} s after the connections closed")
    node.stop()


def run(suite):
    raised_to_fit(suite)
    exhausted(suite)


if __name__ == "__main__":
    faults.main(run)
