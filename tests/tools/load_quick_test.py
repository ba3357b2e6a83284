#!/usr/bin/env python3
"""chessence-load --quick against a real chessence-server (a smoke run, no timing asserts): the
setup completes, moves are played and acknowledged, the opponents and the spectators get them,
nobody is disconnected, the lobby subscribers hear of the games, the computer answers its
opponent, no request is refused, and the server's CPU and memory figures are read from its /metrics.
Usage: load_quick_test.py <bin dir>"""
import json
import os
import re
import subprocess
import sys
import tempfile


def main():
    bin_dir = sys.argv[1]
    with tempfile.TemporaryDirectory() as work:
        server = subprocess.Popen(
            [os.path.join(bin_dir, 'chessence-server'), '--port', '0', '--bind', '127.0.0.1',
             '--db', os.path.join(work, 'load.db'), '--web-root', work,
             '--trusted-proxy', '127.0.0.1', '--rate', '1000'],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            port = re.search(r':(\d+)', server.stdout.readline()).group(1)
            run = subprocess.run(
                [os.path.join(bin_dir, 'chessence-load'), '--quick', '--json',
                 '--url', f'ws://127.0.0.1:{port}/ws'],
                capture_output=True, text=True, timeout=120)
        finally:
            server.terminate()
            server.wait(timeout=15)
    assert run.returncode == 0, f'exit {run.returncode}: {run.stdout} {run.stderr}'
    report = json.loads(run.stdout)
    assert report['setup_complete'], report['failure']
    assert report['moves'] > 0, report
    for key in ('move_to_ack', 'move_to_opponent', 'move_to_last_spectator',
                'move_to_computer_reply'):
        assert report[key]['samples'] > 0, f'{key}: no samples: {report}'
    assert report['players_open'] == report['players'] == 6, report
    assert report['computer_games'] == 1, report
    assert report['connections_open'] == report['connections'], report
    assert report['errors'] == {}, report['errors']
    assert report['server_cpu_us_per_move'] is not None, report
    assert report['server_bytes_per_idle_connection'] is not None, report
    print(f"ok: {report['moves']} moves, {report['connections']} connections")


if __name__ == '__main__':
    main()
