// Driving the pages like a user: finding seeks, choosing legal moves the board exposes, and entering
// them by clicking squares (and the reserve for drops).
import assert from 'node:assert/strict';
import { serverLogTails } from './server.mjs';

// The name lives in the settings dialog the header's name button opens.
export async function setName(page, name) {
    await page.click('#me-button');
    await page.fill('#name-input', name);
    await page.click('#name-form button[type="submit"]');
    await page.waitForFunction((n) => window.chessence?.me?.name === n, name);
    await page.waitForSelector('#settings:not([open])', { state: 'attached' });
}

// A page that never comes online fails with what it and the server saw: its connection state,
// its WebSockets (when each opened, frames each way, how it closed) and the server's last lines.
export async function waitOnline(page, timeout = 30000) {
    try {
        await page.waitForSelector('#conn[data-state="online"]', { timeout });
    } catch (e) {
        const seen = await page.evaluate(() => ({
            state: document.getElementById('conn')?.dataset.state,
            text: document.getElementById('conn')?.textContent.trim(),
            ready: document.readyState,
        })).catch((err) => String(err));
        // A new error: the runner prints the stack, which holds the message it was made with.
        throw new Error(`${e.message}\nthe page: ${JSON.stringify(seen)}\n` +
            `its requests that failed: ${JSON.stringify(page.failedRequests ?? [])}\n` +
            `its WebSockets: ${JSON.stringify(page.sockets ?? [])}\n${serverLogTails()}`, { cause: e });
    }
}

// The create form: variant, side, rounds, private, clock (a preset's label such as '5+3', or
// {minutes, increment} / {days} for a custom one; default unlimited); then "Create game".
export async function createSeek(page, { variant, side = 'random', rounds = null, isPrivate = false, clock = null }) {
    await page.check(`form.create input[name="variant"][value="${variant}"]`, { force: true });
    if (typeof clock === 'string') {
        await page.locator('form.create .clock-presets label', { hasText: clock }).first().click();
    } else if (clock) {
        await page.check('form.create input[name="clock"][value="custom"]', { force: true });
        await page.selectOption('form.create select[name="clock_kind"]', clock.days ? 'days' : 'real');
        if (clock.days) {
            await page.selectOption('form.create select[name="clock_days"]', String(clock.days));
        } else {
            await page.fill('form.create input[name="clock_minutes"]', String(clock.minutes));
            await page.fill('form.create input[name="clock_increment"]', String(clock.increment));
        }
    }
    if (variant !== 'sniderman') {
        await page.check(`form.create input[name="side"][value="${side}"]`, { force: true });
    }
    if (rounds) {
        await page.selectOption('form.create select[name="rounds"]', String(rounds));
    }
    if (isPrivate) {
        await page.check('form.create input[name="private"]');
    }
    await page.click('form.create [data-action="create"]');
    const row = page.locator('[data-my-seek]').last();
    await row.waitFor();
    return row.getAttribute('data-my-seek');
}

export async function gameIdOf(page) {
    await page.waitForFunction(() => location.pathname.startsWith('/game/'));
    await page.waitForSelector('#board[data-version]');
    return decodeURIComponent(await page.evaluate(() => location.pathname.split('/')[2]));
}

export const plyOf = async (page) => Number(await page.getAttribute('#board', 'data-ply'));
export const isOver = async (page) => page.locator('.banner:not([hidden])').isVisible();

// Clicks `locator` if it shows now and returns whether the click landed. A Sniderman choice seen
// may go before the click lands (the server's answer to an earlier click, or the other side acting
// first): the click then gives up after a moment instead of waiting out the test's timeout, and the
// caller's loop looks again.
export async function clickIfShown(locator, timeout = 2000) {
    if (!(await locator.isVisible().catch(() => false))) {
        return false;
    }
    try {
        await locator.click({ timeout });
        return true;
    } catch {
        return false;
    }
}

// Plays one legal move on `page` (whose turn it is) by clicking; `choose(legal)` picks it.
export async function playMove(page, choose) {
    const legal = (await page.getAttribute('#board', 'data-legal')).split(' ').filter(Boolean);
    assert.ok(legal.length > 0, 'the side to move has legal moves on the board');
    const move = choose(legal);
    if (move.startsWith('@')) {
        await page.click('[data-reserve]:not([disabled])');
        await page.click(`#board [data-square="${move.slice(1)}"]`);
    } else {
        for (const sq of move.match(/[a-z]\d+/g)) {
            await page.click(`#board [data-square="${sq}"]`);
        }
    }
    return move;
}

// A seeded random choice preferring captures, so that games head for a rules ending.
export function chooser(seed) {
    let s = seed >>> 0;
    const rand = () => {
        s = (s * 1664525 + 1013904223) >>> 0;
        return s / 2 ** 32;
    };
    return (legal) => {
        const captures = legal.filter((m) => m.includes('x'));
        const pool = captures.length && rand() < 0.85 ? captures : legal;
        return pool[Math.floor(rand() * pool.length)];
    };
}

// The page (of `pages`) whose user has to act now, or null.
export async function whoseTurn(pages) {
    for (const p of pages) {
        if ((await p.getAttribute('#board', 'data-my-turn')) === 'true') {
            return p;
        }
    }
    return null;
}

export async function moveTexts(page) {
    return page.locator('.move-list .mv:not(.empty)').allTextContents();
}
