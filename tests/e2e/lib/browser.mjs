// Headless Chromium from Debian, driven by playwright-core (no browser download).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const REPO_DIR = path.resolve(E2E_DIR, '..', '..');
export const WEB_ROOT = path.join(REPO_DIR, 'web-client');
export const SHOT_DIR = path.join(E2E_DIR, 'screenshots');

export async function launch() {
    return chromium.launch({
        executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
               '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
}

// A page that fails the test on any uncaught script error.
export async function newPage(browser, options = {}) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'dark', ...options });
    const page = await context.newPage();
    page.errors = [];
    // Each WebSocket the page opens, and each request that failed or was refused, for a failure's
    // report (see waitOnline).
    page.sockets = [];
    page.failedRequests = [];
    page.on('requestfailed', (r) => page.failedRequests.push(`${r.url()}: ${r.failure()?.errorText}`));
    page.on('response', (r) => {
        if (r.status() >= 400) {
            page.failedRequests.push(`${r.url()}: ${r.status()}`);
        }
    });
    const since = Date.now();
    page.on('websocket', (ws) => {
        const record = { url: ws.url(), at_ms: Date.now() - since, sent: 0, received: 0, closed_ms: null, error: null };
        page.sockets.push(record);
        ws.on('framesent', () => record.sent++);
        ws.on('framereceived', () => record.received++);
        ws.on('socketerror', (err) => { record.error = String(err); });
        ws.on('close', () => { record.closed_ms = Date.now() - since; });
    });
    // Playwright's own waitForFunction builds its predicate inside the page with eval, which the
    // server's Content-Security-Policy forbids (as it should): this one asks from Node instead,
    // every 50 ms, with page.evaluate (DevTools evaluation, which the policy does not govern).
    page.waitForFunction = async (fn, arg, options = {}) => {
        const timeout = options.timeout ?? 30000;
        const deadline = Date.now() + timeout;
        for (;;) {
            try {
                const value = await page.evaluate(fn, arg);
                if (value) {
                    return value;
                }
            } catch (e) {
                if (!/context was destroyed|navigat/i.test(String(e))) {
                    throw e;
                }
            }
            if (Date.now() > deadline) {
                throw new Error(`waitForFunction: not true after ${timeout} ms: ${fn}`);
            }
            await new Promise((resolve) => setTimeout(resolve, 50));
        }
    };
    page.on('console', (m) => {
        if (/Content.Security.Policy/i.test(m.text())) {
            page.errors.push(`CSP: ${m.text()}`);
        }
    });
    page.on('pageerror', (e) => page.errors.push(String(e)));
    page.on('console', (m) => {
        // The analysis board reads a game's analysis, which answers 404 `not_analysed` (or a refusal
        // to POST) by design; Chromium notes every such answer as an error. Any other one counts.
        const analysis = /\/api\/games\/[^/?]+\/analysis(\?|$)/.test(m.location()?.url ?? '');
        if (m.type() === 'error' && !(analysis && /Failed to load resource/.test(m.text()))) {
            page.errors.push(m.text());
        }
    });
    return { context, page };
}

export async function screenshot(page, name) {
    fs.mkdirSync(SHOT_DIR, { recursive: true });
    await page.waitForTimeout(350); // let the last move's slide finish
    await page.screenshot({ path: path.join(SHOT_DIR, `${name}.png`), fullPage: false });
}
