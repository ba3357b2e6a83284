// The puzzle pages against the real server with the shipped bank (issue 25, item 4): the chooser
// with each game's count, the puzzle of the day solved move by move against the bank's replies, a
// wrong move, "Show solution", "Next puzzle", the streak in localStorage, Sniderman's object, the
// error pages (an unknown id or game, a server without puzzles), and the layout at 390×844 and
// 1366×768. The right moves come from the API's `solution`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, newPage, screenshot } from './lib/browser.mjs';
import { suite } from './lib/suite.mjs';
import { startServer } from './lib/server.mjs';
import { cutOff, lowContrast, smallControls } from './lib/checks.mjs';

const env = suite({ puzzles: true });
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1366, height: 768 } };
const GAMES = ['chessence', 'chesica', 'sniderman'];

async function visitor(options = DESKTOP) {
    const { context, page } = await newPage(env.browser, options);
    env.contexts.push(context);
    return page;
}

// The page's script errors; the browser's own note on an HTTP error answer (which the error pages
// are about) is not one.
const scriptErrors = (page) => page.errors.filter((e) => !/Failed to load resource/.test(e));

async function api(url) {
    const res = await fetch(`${env.server.url}${url}`);
    return { status: res.status, body: await res.json() };
}

// This browser's stored record of `game` (puzzle_streak.js).
const stored = (page, game) => page.evaluate((g) => JSON.parse(localStorage.getItem('chessence.puzzles') ?? '{}')[g] ?? null, game);

// Opens `path` and waits for the puzzle's position to be on the board, ready for a move.
async function openPuzzle(page, urlPath) {
    await page.goto(`${env.server.url}${urlPath}`);
    await page.waitForSelector('.puzzle-layout[data-state="play"] #puzzle-board[data-ply="0"] [data-square]');
    await page.waitForFunction(() => document.querySelector('#puzzle-board')?.dataset.legal);
}

// Enters `move` on the puzzle board by clicking its squares (a drop: the reserve, then the square).
async function enter(page, move) {
    if (move.startsWith('@')) {
        await page.click('#puzzle-board [data-reserve]:not([disabled])');
        await page.click(`#puzzle-board [data-square="${move.slice(1)}"]`);
        return;
    }
    for (const sq of move.match(/[a-z]\d+/g)) {
        await page.click(`#puzzle-board [data-square="${sq}"]`);
    }
}

// Plays the solver's moves of `solution` from ply `from`, waiting for each reply; ends on "Solved!".
async function solve(page, solution, from = 0) {
    for (let ply = from; ply < solution.length; ply += 2) {
        const legal = (await page.getAttribute('#puzzle-board', 'data-legal')).split(' ');
        assert.ok(legal.includes(solution[ply]), `${solution[ply]} is offered (${legal.join(' ')})`);
        await enter(page, solution[ply]);
        if (ply + 1 < solution.length) {
            await page.waitForSelector(`.puzzle-layout[data-state="play"] #puzzle-board[data-ply="${ply + 2}"]`);
        }
    }
    await page.waitForSelector('.puzzle-layout[data-state="solved"]');
}

test('the header and the landing page lead to the chooser: three games with their counts and streaks', async () => {
    const page = await visitor();
    await page.goto(`${env.server.url}/`);
    assert.equal(await page.locator('section.intro a[href="/puzzles"]').count(), 1, 'the landing page names the puzzles');
    await screenshot(page, 'puzzles-landing-1366x768');
    await page.click('.site-nav a[data-nav="puzzles"]');
    await page.waitForFunction(() => location.pathname === '/puzzles');
    assert.equal(await page.getAttribute('.site-nav a[data-nav="puzzles"]', 'aria-current'), 'page');
    const counts = (await api('/api/puzzles')).body.games;
    await page.waitForSelector('.puzzle-game[data-total]');
    assert.equal(await page.locator('.puzzle-game').count(), 3);
    for (const g of GAMES) {
        const card = page.locator(`[data-puzzle-game="${g}"]`);
        assert.ok(counts[g] >= 100, `${g}: ${counts[g]} puzzles in the bank`);
        assert.equal(await card.getAttribute('data-total'), String(counts[g]));
        assert.match(await card.locator('[data-count]').textContent(), new RegExp(`^${counts[g]} puzzles$`));
        assert.equal(await card.locator('a[data-action="daily"]').getAttribute('href'), `/puzzles/${g}/daily`);
        assert.equal(await card.locator('a[data-action="random"]').getAttribute('href'), `/puzzles/${g}/random`);
        assert.match(await card.locator('[data-streak]').textContent(), new RegExp(`Streak 0 · best 0 · 0 of ${counts[g]} solved`));
    }
    assert.deepEqual(await cutOff(page), []);
    await screenshot(page, 'puzzles-chooser-1366x768');
    assert.deepEqual(page.errors, []);
});

test('the puzzle of the day: the right moves are taken, the replies played; "Solved!" and the streak grows', async () => {
    const daily = (await api('/api/puzzles/chessence/daily')).body;
    const page = await visitor();
    await page.goto(`${env.server.url}/puzzles`);
    await page.click('[data-puzzle-game="chessence"] a[data-action="daily"]');
    await page.waitForSelector('.puzzle-layout[data-state="play"] #puzzle-board[data-ply="0"] [data-square]');
    assert.equal(await page.getAttribute('.puzzle-layout', 'data-puzzle'), daily.id);
    const side = daily.to_move === 'black' ? 'Black' : 'White';
    assert.equal(await page.textContent('[data-prompt]'), `Your turn: find the only winning move for ${side}.`);
    // Oriented for the side to move: its first rank at the bottom.
    const a1 = await page.locator('#puzzle-board [data-square="a1"]').boundingBox();
    const a9 = await page.locator('#puzzle-board [data-square="a9"]').boundingBox();
    assert.equal(a1.y > a9.y, daily.to_move === 'white', `a1 at ${a1.y}, a9 at ${a9.y}`);
    // The first move, then the bank's reply on the board after a moment.
    await enter(page, daily.solution[0]);
    if (daily.solution.length > 1) {
        assert.match(await page.textContent('[data-status]'), /Right!/);
        await page.waitForSelector('.puzzle-layout[data-state="play"] #puzzle-board[data-ply="2"]');
        assert.equal(await page.locator('.puzzle-line [data-ply]').count(), 2, 'the moves so far are listed');
        await solve(page, daily.solution, 2);
    } else {
        await page.waitForSelector('.puzzle-layout[data-state="solved"]');
    }
    assert.equal(await page.textContent('.puzzle-verdict'), 'Solved!');
    assert.equal(await page.getAttribute('.puzzle-line ol', 'data-line'), daily.solution.join(' '));
    // The line in the game's notation, numbered from the position's move number.
    const [, color, number] = / ([wb]) \d+ (\d+)$/.exec(daily.fen);
    assert.equal(await page.textContent('.puzzle-line li:first-child .mv'),
                 `${number}${color === 'w' ? '.' : '…'} ${daily.solution[0]}`);
    const record = await stored(page, 'chessence');
    assert.equal(record.current, 1);
    assert.equal(record.best, 1);
    assert.deepEqual(record.solved, [daily.id]);
    assert.equal(await page.getAttribute('[data-streak]', 'data-current'), '1');
    assert.match(await page.textContent('.puzzle-note'), /Your streak: 1/);
    // Stepping through the line after the end.
    await page.click('.puzzle-line button.mv[data-ply="1"]');
    await page.waitForSelector('#puzzle-board[data-ply="1"]');
    await screenshot(page, 'puzzles-solved-1366x768');
    assert.deepEqual(await cutOff(page, ['#puzzle-board svg.board', '[data-prompt]', '.puzzle-verdict']), []);
    // Playing it again does not count twice.
    await page.click('[data-action="again"]');
    await page.waitForSelector('.puzzle-layout[data-state="play"] #puzzle-board[data-ply="0"]');
    await page.waitForFunction(() => document.querySelector('#puzzle-board')?.dataset.legal);
    await solve(page, daily.solution);
    assert.match(await page.textContent('.puzzle-note'), /solved it before/);
    assert.equal((await stored(page, 'chessence')).current, 1);
    // "Next puzzle": another one, not the one just played; its address names its id.
    await page.click('a[data-action="next"]');
    await page.waitForFunction((id) => /^\/puzzles\/chessence\/[0-9a-f]{12}$/.test(location.pathname)
                                       && !location.pathname.endsWith(id), daily.id);
    await page.waitForSelector('.puzzle-layout[data-state="play"] #puzzle-board [data-square]');
    const next = await page.getAttribute('.puzzle-layout', 'data-puzzle');
    assert.notEqual(next, daily.id);
    assert.equal(await page.evaluate(() => location.pathname), `/puzzles/chessence/${next}`);
    // The chooser shows the streak too.
    await page.click('a[data-action="puzzles"]');
    await page.waitForSelector('[data-puzzle-game="chessence"][data-total]');
    assert.match(await page.textContent('[data-puzzle-game="chessence"] [data-streak]'), /^Streak 1 · best 1 · 1 of \d+ solved$/);
    assert.deepEqual(page.errors, []);
});

test('a wrong first move says so and resets the streak; "Try again" goes back; solving after it does not count', async () => {
    const p = (await api('/api/puzzles/chesica/random')).body;
    const page = await visitor();
    await page.goto(`${env.server.url}/`);
    await page.evaluate(() => localStorage.setItem('chessence.puzzles',
        JSON.stringify({ chesica: { current: 3, best: 4, solved: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb', 'cccccccccccc'], failed: [] } })));
    await openPuzzle(page, `/puzzles/chesica/${p.id}`);
    assert.equal(await page.getAttribute('[data-streak]', 'data-current'), '3');
    const legal = (await page.getAttribute('#puzzle-board', 'data-legal')).split(' ');
    const wrong = legal.find((m) => m !== p.solution[0]);
    assert.ok(wrong, 'a puzzle has more than one legal move');
    await enter(page, wrong);
    await page.waitForSelector('.puzzle-layout[data-state="wrong"] #puzzle-board[data-ply="1"]');
    assert.match(await page.textContent('.puzzle-verdict'), /^Not the move/);
    assert.match(await page.textContent('.puzzle-note'), /streak is back to 0/);
    assert.equal(await page.getAttribute('[data-streak]', 'data-current'), '0');
    const record = await stored(page, 'chesica');
    assert.equal(record.current, 0);
    assert.equal(record.best, 4);
    assert.deepEqual(record.failed, [p.id]);
    assert.equal(await page.getAttribute('#puzzle-board', 'data-legal'), '', 'no move is taken until "Try again"');
    await screenshot(page, 'puzzles-wrong-1366x768');
    await page.click('[data-action="retry"]');
    await page.waitForSelector('.puzzle-layout[data-state="play"] #puzzle-board[data-ply="0"]');
    await page.waitForFunction(() => document.querySelector('#puzzle-board')?.dataset.legal);
    await solve(page, p.solution);
    assert.match(await page.textContent('.puzzle-note'), /first try missed/);
    assert.equal((await stored(page, 'chesica')).current, 0);
    assert.deepEqual(page.errors, []);
});

test('"Show solution" plays the line out and counts as a miss', async () => {
    const p = (await api('/api/puzzles/chessence/random')).body;
    const page = await visitor();
    await page.goto(`${env.server.url}/`);
    await page.evaluate(() => localStorage.setItem('chessence.puzzles', JSON.stringify({ chessence: { current: 2, best: 2, solved: [], failed: [] } })));
    await openPuzzle(page, `/puzzles/chessence/${p.id}`);
    await page.click('[data-action="solution"]');
    await page.waitForSelector('.puzzle-layout[data-state="showing"]');
    assert.equal(await page.getAttribute('#puzzle-board', 'data-legal'), '', 'no moves while the line plays');
    await page.waitForSelector('.puzzle-layout[data-state="shown"]', { timeout: 15000 });
    await page.waitForSelector(`#puzzle-board[data-ply="${p.solution.length}"]`);
    assert.equal(await page.textContent('.puzzle-verdict'), 'The solution');
    assert.equal(await page.getAttribute('.puzzle-line ol', 'data-line'), p.solution.join(' '));
    assert.match(await page.textContent('.puzzle-note'), /counts as a miss/);
    const record = await stored(page, 'chessence');
    assert.equal(record.current, 0);
    assert.deepEqual(record.failed, [p.id]);
    assert.equal(await page.locator('a[data-action="next"]').count(), 1);
    assert.deepEqual(page.errors, []);
});

test('sniderman: the object\'s text and the side the player is; its first capture is taken', async () => {
    const p = (await api('/api/puzzles/sniderman/daily')).body;
    assert.ok(p.object_text, 'a Sniderman puzzle has its object text');
    const page = await visitor(PHONE);
    await openPuzzle(page, '/puzzles/sniderman/daily');
    assert.equal(await page.getAttribute('.puzzle-layout', 'data-puzzle'), p.id);
    assert.ok((await page.textContent('[data-object]')).startsWith(`Object ${p.object}: ${p.object_text}`));
    assert.match(await page.textContent('[data-prompt]'), new RegExp(`you are ${p.to_move.toUpperCase()}\\. Find the only winning capture`));
    assert.equal(await page.locator('#puzzle-board .sq.red').count(), 8);
    assert.deepEqual(await cutOff(page, ['#puzzle-board svg.board', '[data-prompt]', '[data-object]']), []);
    await screenshot(page, 'puzzles-sniderman-390x844');
    await solve(page, p.solution);
    assert.equal((await stored(page, 'sniderman')).current, 1);
    await page.locator('.puzzle-verdict').scrollIntoViewIfNeeded();
    await screenshot(page, 'puzzles-sniderman-solved-390x844');
    assert.deepEqual(page.errors, []);
});

test('an unknown puzzle or game: a page that says so, with a way back to the puzzles', async () => {
    const page = await visitor(PHONE);
    await page.goto(`${env.server.url}/puzzles/chesica/0123456789ab`);
    await page.waitForSelector('[data-missing]');
    assert.equal(await page.textContent('[data-missing] h1'), 'No such puzzle');
    assert.match(await page.textContent('[data-missing] p'), /0123456789ab/);
    assert.equal(await page.locator('#puzzle-board').count(), 0);
    await screenshot(page, 'puzzles-missing-390x844');
    await page.click('[data-missing] a[data-action="puzzles"]');
    await page.waitForSelector('.puzzle-game');
    await page.goto(`${env.server.url}/puzzles/checkers/daily`);
    await page.waitForSelector('[data-missing]');
    assert.equal(await page.textContent('[data-missing] h1'), 'No such game');
    assert.match(await page.textContent('[data-missing] p'), /“checkers”/);
    assert.deepEqual(scriptErrors(page), []);
});

test('390×844 and 1366×768: no horizontal overflow, the board and the task in view, tap targets', { timeout: 90000 }, async () => {
    const phone = await visitor(PHONE);
    await phone.goto(`${env.server.url}/`);
    await phone.locator('.intro-puzzles').scrollIntoViewIfNeeded();
    assert.deepEqual(await cutOff(phone, ['.intro-puzzles a']), [], 'the landing page\'s puzzle link on a phone');
    await screenshot(phone, 'puzzles-landing-390x844');
    await phone.goto(`${env.server.url}/puzzles`);
    await phone.waitForSelector('.puzzle-game[data-total]');
    assert.deepEqual(await cutOff(phone), [], 'the chooser on a phone');
    assert.deepEqual(await smallControls(phone), [], 'the chooser on a phone');
    await screenshot(phone, 'puzzles-chooser-390x844');
    const desk = await visitor(DESKTOP);
    for (const g of GAMES) {
        for (const [page, size] of [[phone, '390x844'], [desk, '1366x768']]) {
            await openPuzzle(page, `/puzzles/${g}/daily`);
            assert.deepEqual(await cutOff(page, ['#puzzle-board svg.board', '[data-prompt]']), [], `${g} at ${size}`);
            if (page === phone) {
                assert.deepEqual(await smallControls(page), [], `${g} tap targets at ${size}`);
            }
            const box = await page.locator('#puzzle-board svg.board').boundingBox();
            const files = Number(await page.getAttribute('#puzzle-board svg.board', 'data-files'));
            assert.ok(box.width / files >= (page === phone ? 40 : 60), `${g} at ${size}: ${box.width / files} px squares`);
            assert.deepEqual(await lowContrast(page), [], `${g} contrast at ${size}`);
            await screenshot(page, `puzzles-${g}-${size}`);
        }
    }
    // A wrong move on a phone: the verdict and "Try again" under the board come into view.
    const p = (await api('/api/puzzles/chessence/daily')).body;
    await openPuzzle(phone, '/puzzles/chessence/daily');
    await enter(phone, (await phone.getAttribute('#puzzle-board', 'data-legal')).split(' ').find((m) => m !== p.solution[0]));
    await phone.waitForSelector('.puzzle-layout[data-state="wrong"]');
    await phone.waitForTimeout(800); // the smooth scroll
    assert.deepEqual(await cutOff(phone, ['.puzzle-verdict', '[data-action="retry"]']), [], 'the verdict on a phone');
    await screenshot(phone, 'puzzles-wrong-390x844');
    // The light theme.
    await desk.emulateMedia({ colorScheme: 'light' });
    await openPuzzle(desk, '/puzzles/sniderman/daily');
    assert.deepEqual(await lowContrast(desk), [], 'sniderman contrast in the light theme');
    await screenshot(desk, 'puzzles-sniderman-light-1366x768');
    assert.deepEqual(phone.errors, []);
    assert.deepEqual(desk.errors, []);
});

test('a server without puzzles: "Puzzles are not available on this server"', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chessence-nopuzzles-'));
    const server = await startServer({ puzzles: path.join(dir, 'missing.json') });
    const browser = await launch();
    try {
        const { page } = await newPage(browser, PHONE);
        for (const where of ['/puzzles', '/puzzles/chessence/daily']) {
            await page.goto(`${server.url}${where}`);
            await page.waitForSelector('[data-missing]');
            assert.equal(await page.textContent('[data-missing] h1'), 'Puzzles are not available on this server', where);
        }
        await screenshot(page, 'puzzles-unavailable-390x844');
        assert.deepEqual(scriptErrors(page), []);
    } finally {
        await browser.close();
        await server.stop();
        fs.rmSync(dir, { recursive: true, force: true });
    }
});
