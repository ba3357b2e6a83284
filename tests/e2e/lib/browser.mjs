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
    page.on('pageerror', (e) => page.errors.push(String(e)));
    page.on('console', (m) => {
        if (m.type() === 'error') {
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
