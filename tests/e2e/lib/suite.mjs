// One real server and one Chromium per test file: started before its tests, closed after them with
// every browser context a test registered in `contexts`. `serverOptions` go to startServer().
// `env.test` is node:test's `test` that, when a test fails, prints what each open page and the
// server saw (each page's connection state, WebSockets and failed requests; the server's last
// log lines), then runs it once more (RETRIES): a real browser on a loaded two-core machine now and
// then misses a 30 s wait; a test that fails twice fails.
import { before, after, test as nodeTest } from 'node:test';
import { launch } from './browser.mjs';
import { serverLogTails, startServer } from './server.mjs';

const RETRIES = 1;

async function describePages(contexts) {
    const lines = [];
    for (const context of contexts) {
        for (const page of context.pages()) {
            const seen = await page.evaluate(() => ({
                path: location.pathname,
                conn: document.getElementById('conn')?.dataset.state,
                ply: document.getElementById('board')?.dataset.ply,
            })).catch((err) => String(err).split('\n')[0]);
            lines.push(`page ${JSON.stringify(seen)}; WebSockets ${JSON.stringify(page.sockets ?? [])}; ` +
                       `failed requests ${JSON.stringify(page.failedRequests ?? [])}`);
        }
    }
    return lines.join('\n');
}

export function suite(serverOptions = {}) {
    const env = { server: null, browser: null, contexts: [] };
    env.test = (name, options, fn) => {
        if (typeof options === 'function') {
            [fn, options] = [options, {}];
        }
        // A second attempt gets its own time.
        const timed = options.timeout ? { ...options, timeout: 2 * options.timeout } : options;
        return nodeTest(name, timed, async (t) => {
            for (let attempt = 1; ; ++attempt) {
                try {
                    return await fn(t);
                } catch (e) {
                    console.log(`--- "${name}" failed (attempt ${attempt}) at ${new Date().toISOString()}: ` +
                                `${String(e?.message ?? e).split('\n')[0]}\nthe open pages:\n` +
                                `${await describePages(env.contexts)}\n${serverLogTails(60)}`);
                    if (attempt >= RETRIES + 1) {
                        throw e;
                    }
                    console.log(`--- "${name}": once more, with new pages`);
                }
            }
        });
    };
    before(async () => {
        env.server = await startServer(serverOptions);
        env.browser = await launch();
    });
    after(async () => {
        for (const c of env.contexts) {
            await c.close().catch(() => {});
        }
        await env.browser?.close();
        await env.server?.stop();
    });
    return env;
}
