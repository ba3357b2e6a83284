"""Issue 42: behind the shipped HAProxy a client cannot choose the address its limits count
against. A node trusts the proxy (--trusted-proxy 127.0.0.1, the address HAProxy connects from);
40 new guests from one client address, 127.0.0.3, each naming an address of its own in
X-Forwarded-For, say hello through HAProxy: the node sees them all as the address HAProxy saw,
so 30 (the new guests per address an hour) are welcomed and the rest refused `rate_limited`. The
same through an HAProxy that appends its line after the client's (`option forwardfor`, the form
shipped before): the node reads every line, so the proxy's, the last, counts. And a client that
connects directly, from an address that is no trusted proxy (127.0.0.2), is counted by that
address, whatever its header says.

The client is not 127.0.0.1 on purpose: an entry naming a trusted proxy is skipped, so a client
at the proxy's own address would make the test pass whatever the node believed.

    python3 proxy_address_test.py --bin BUILD/bin
"""
import time

import faults

GUESTS = 40
GUESTS_PER_HOUR = 30  # the node's default, --guests-per-hour (server/limits.h)
SHIPPED_RULE = "http-request set-header X-Forwarded-For %[src]"
CLIENT = "127.0.0.3"  # the players' address as HAProxy sees it


def hellos(port, label, source=None):
    """GUESTS new guests saying hello to `port`, the n-th claiming X-Forwarded-For 203.0.113.n:
    (how many were welcomed, the refusals)."""
    welcomed, refusals = 0, []
    for n in range(1, GUESTS + 1):
        answer = faults.welcomed(port, f"{label} guest {n}",
                                 headers=[("X-Forwarded-For", f"203.0.113.{n}")], source=source)
        if answer.get("type") == "welcome":
            welcomed += 1
        else:
            refusals.append(answer)
    return welcomed, refusals


def check_limited(label, welcomed, refusals):
    faults.check(welcomed == GUESTS_PER_HOUR,
                 f"{label}: {welcomed} of {GUESTS} guests naming their own addresses were "
                 f"welcomed; the limit is {GUESTS_PER_HOUR} new guests per address an hour")
    for refusal in refusals:
        faults.check(refusal.get("type") == "error" and refusal.get("code") == "rate_limited"
                     and refusal.get("id") == "hello"
                     and "new guests" in refusal.get("message", ""),
                     f"{label}: a guest beyond the limit was refused with {refusal}, not "
                     f"rate_limited")


def run(suite):
    started = time.monotonic()
    trusted = ["--trusted-proxy", "127.0.0.1"]

    # The shipped front end: HAProxy sets the header to the address it saw.
    node = suite.node("node", trusted)
    proxy = suite.haproxy([node])
    welcomed, refusals = hellos(proxy.port, "through haproxy", source=CLIENT)
    check_limited("through the shipped haproxy.cfg", welcomed, refusals)
    print(f"through the shipped haproxy.cfg: {welcomed} of {GUESTS} welcomed, "
          f"{len(refusals)} refused rate_limited")

    # Directly, from 127.0.0.2 (no trusted proxy): the header is ignored and that address counts
    # (its own 30, untouched by the used-up ones of 127.0.0.3).
    welcomed, refusals = hellos(node.port, "direct", source="127.0.0.2")
    check_limited("directly from 127.0.0.2 with a forged header", welcomed, refusals)
    print(f"directly from 127.0.0.2: {welcomed} of {GUESTS} welcomed, "
          f"{len(refusals)} refused rate_limited")

    # HAProxy appending its line after the client's (option forwardfor): a node of its own, so
    # 127.0.0.3 starts with 30 again.
    def appending(text):
        faults.check(SHIPPED_RULE in text, f"haproxy.cfg has no '{SHIPPED_RULE}' to replace")
        return text.replace(SHIPPED_RULE, "option forwardfor")

    other = suite.node("appended-node", trusted)
    appended = suite.haproxy([other], name="haproxy-forwardfor", rewrite=appending)
    welcomed, refusals = hellos(appended.port, "appending haproxy", source=CLIENT)
    check_limited("through an haproxy with option forwardfor", welcomed, refusals)
    print(f"through an haproxy with option forwardfor: {welcomed} of {GUESTS} welcomed, "
          f"{len(refusals)} refused rate_limited")
    print(f"{time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    faults.main(run)
