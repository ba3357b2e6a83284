// Starts the real chessence-server on a free port with a fresh database and this repo's client.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_DIR, WEB_ROOT } from './browser.mjs';

// The servers running now, so that a test that fails can show what they logged last.
export const runningServers = new Set();

export function serverBinary() {
    return process.env.CHESSENCE_SERVER || path.join(REPO_DIR, 'build', 'release', 'bin', 'chessence-server');
}

// The puzzle bank the repository ships.
export const PUZZLE_BANK = path.join(REPO_DIR, 'puzzles', 'bank.json');

// `port` (0: any free one) and `db` (a fresh file by default) let a test restart a server in place;
// stop() then keeps `db` (it removes only the folder it made itself). `puzzles`: the bank to load
// (`true`: the repository's); by default none is named, and the server (started in tests/e2e, where
// its default puzzles/bank.json is not) serves no puzzles. `args`: more flags (`--bot-threads 0`).
export async function startServer({ port = 0, db = null, puzzles = null, args: extra = [] } = {}) {
    const bin = serverBinary();
    if (!fs.existsSync(bin)) {
        throw new Error(`server binary not found: ${bin} (build it, or set CHESSENCE_SERVER)`);
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chessence-e2e-'));
    db ??= process.env.CHESSENCE_E2E_DB || path.join(dir, 'e2e.db'); // ':memory:' works too
    // Every browser context is a new guest from 127.0.0.1, and a test file makes many within
    // minutes: the per-address guest limit is raised here (it is tested in
    // tests/server/net/address_limits_server_test.cpp); every other limit keeps its default.
    const args = ['--port', String(port), '--db', db, '--web-root', WEB_ROOT, '--guests-per-hour', '100000'];
    if (puzzles) {
        args.push('--puzzles', puzzles === true ? PUZZLE_BANK : puzzles);
    }
    args.push(...extra);
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    const url = await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 20000);
        const onData = (chunk) => {
            log += chunk;
            const m = /listening on (\S+):(\d+)/.exec(log);
            if (m) {
                clearTimeout(timer);
                const host = m[1] === '0.0.0.0' || m[1] === '::' || m[1] === '[::]' ? '127.0.0.1' : m[1].replace(/^\[|\]$/g, '');
                resolve(`http://${host.includes(':') ? `[${host}]` : host}:${m[2]}`);
            }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', (c) => { log += c; });
        child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${log}`)));
    });
    const server = {
        url,
        log: () => log,
        // Resolves with the exit code (null when it had to be killed after 10 s).
        stop: async () => {
            let code = child.exitCode;
            if (code === null) {
                child.kill('SIGTERM');
                code = await new Promise((r) => {
                    child.once('exit', (c) => r(c));
                    setTimeout(() => { child.kill('SIGKILL'); r(null); }, 10000);
                });
            }
            runningServers.delete(server);
            fs.rmSync(dir, { recursive: true, force: true });
            return code;
        },
    };
    runningServers.add(server);
    return server;
}

// The last `lines` lines each running server logged.
export function serverLogTails(lines = 40) {
    return [...runningServers].map((s) => `--- ${s.url} logged last:\n${s.log().split('\n').slice(-lines).join('\n')}`)
        .join('\n');
}
