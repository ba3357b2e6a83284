#!/usr/bin/env python3
"""GET /metrics of a real chessence-server, read by the Prometheus project's own parser
(python3-prometheus-client): every family parses, with the type the server declares, histograms
have cumulative buckets ending in +Inf equal to their count, and the families docs/operations.md
lists are all there.  Usage: prometheus_format_test.py <bin dir> <source dir>"""
import os
import re
import subprocess
import sys
import tempfile
import urllib.request

from prometheus_client.parser import text_string_to_metric_families


def main():
    bin_dir, source_dir = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as web_root:
        server = subprocess.Popen(
            [os.path.join(bin_dir, 'chessence-server'), '--port', '0', '--bind', '127.0.0.1',
             '--db', ':memory:', '--web-root', web_root],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            line = server.stdout.readline()
            port = re.search(r'listening on 127\.0\.0\.1:(\d+)', line).group(1)
            with urllib.request.urlopen(f'http://127.0.0.1:{port}/metrics', timeout=10) as answer:
                assert answer.status == 200, answer.status
                content_type = answer.headers['Content-Type']
                text = answer.read().decode()
        finally:
            server.terminate()
            server.wait(timeout=10)
    assert content_type.startswith('text/plain; version=0.0.4'), content_type

    families = {f.name: f for f in text_string_to_metric_families(text)}
    # The parser names a counter family without its _total suffix.
    expected = {
        'chessence_build_info': 'gauge', 'chessence_connections': 'gauge',
        'chessence_connections_accepted': 'counter', 'chessence_refusals': 'counter',
        'chessence_errors': 'counter', 'chessence_rooms_in_memory': 'gauge',
        'chessence_games_active': 'gauge', 'chessence_moves': 'counter',
        'chessence_move_seconds': 'histogram', 'chessence_store_commit_seconds': 'histogram',
        'chessence_store_group_batches': 'histogram', 'chessence_queue_drops': 'counter',
        'chessence_draining': 'gauge', 'chessence_ready': 'gauge',
        'process_cpu_seconds': 'counter',
        'chessence_bot_jobs_queued': 'gauge', 'chessence_bot_moves': 'counter',
        'chessence_bot_think_seconds': 'histogram',
        'process_resident_memory_bytes': 'gauge', 'process_open_fds': 'gauge',
        'process_start_time_seconds': 'gauge',
    }
    for name, kind in expected.items():
        assert name in families, f'{name} missing; have {sorted(families)}'
        assert families[name].type == kind, f'{name}: {families[name].type}, not {kind}'
    for family in families.values():
        if family.type != 'histogram':
            continue
        buckets = [s for s in family.samples if s.name.endswith('_bucket')]
        counts = [s.value for s in buckets]
        assert counts == sorted(counts), f'{family.name}: buckets not cumulative: {counts}'
        assert buckets[-1].labels['le'] == '+Inf', family.name
        count = next(s.value for s in family.samples if s.name.endswith('_count'))
        assert buckets[-1].value == count, f'{family.name}: +Inf {buckets[-1].value} != {count}'
    codes = {s.labels['code'] for s in families['chessence_errors'].samples}
    assert {'illegal_move', 'rate_limited', 'server_restarting', 'internal_error'} <= codes, codes
    # Cluster mode's families (issue 42): absent on a single node, documented all the same.
    cluster_only = {
        'chessence_leases_held': 'gauge', 'chessence_lease_renewal_failures': 'counter',
        'chessence_leases_lost': 'counter', 'chessence_relay_records_queued': 'gauge',
        'chessence_relay_records_dropped': 'counter', 'chessence_pubsub_reconnects': 'counter',
        'chessence_relay_remote_clients': 'gauge', 'chessence_relay_relayed_clients': 'gauge',
    }
    for name in cluster_only:
        assert name not in families, f'{name} shown by a single node'
    documented = open(os.path.join(source_dir, 'docs', 'operations.md')).read()
    for name, kind in {**expected, **cluster_only}.items():
        shown = name + ('_total' if kind == 'counter' else '')
        assert f'`{shown}`' in documented, f'{shown} is not described in docs/operations.md'
    print(f'ok: {len(families)} families parsed')


if __name__ == '__main__':
    main()
