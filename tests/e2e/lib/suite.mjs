// One real server and one Chromium per test file: started before its tests, closed after them with
// every browser context a test registered in `contexts`. `serverOptions` go to startServer().
import { before, after } from 'node:test';
import { launch } from './browser.mjs';
import { startServer } from './server.mjs';

export function suite(serverOptions = {}) {
    const env = { server: null, browser: null, contexts: [] };
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
