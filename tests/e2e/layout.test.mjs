// Layout, accessibility and screenshots of every page against the real server: nothing cut off and
// the board with its status in view at 390×844, 760×900 and 1024×600; no control under 44 px on
// narrow screens; every text and board coordinate at 4.5:1 or better in both colour themes and every
// board theme; the board never turns during a Sniderman match; controls have names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, screenshot } from './lib/browser.mjs';
import { suite } from './lib/suite.mjs';
import { clickIfShown, createSeek, gameIdOf, playMove, chooser, setName, waitOnline } from './lib/play.mjs';
import { cutOff, lowContrast, smallControls } from './lib/checks.mjs';
import { socketGame } from './lib/socket_game.mjs';

const env = suite();

const SIZES = [{ width: 390, height: 844 }, { width: 760, height: 900 }, { width: 1024, height: 600 }];

async function person(name, options = {}) {
    const { context, page } = await newPage(env.browser, options);
    env.contexts.push(context);
    await page.goto(`${env.server.url}/`);
    await waitOnline(page);
    await setName(page, name);
    return page;
}

// A game of `variant` between two new players; returns [first player's page, second's, game id].
async function newGame(variant) {
    const a = await person(`A${variant.slice(0, 4)}`);
    const b = await person(`B${variant.slice(0, 4)}`);
    const seekId = await createSeek(a, { variant, side: 'white', rounds: variant === 'sniderman' ? 3 : null });
    await b.click(`tr[data-seek="${seekId}"] [data-accept]`);
    const gameId = await gameIdOf(a);
    await gameIdOf(b);
    return [a, b, gameId];
}

// With the page scrolled to the top: the game controls (time: abort, takeback, +15 s; actions:
// draw, resign) and both player bars (the clocks) that are not wholly inside the window, and the
// names of the controls shown.
async function controlsOutOfView(page) {
    await page.evaluate(() => window.scrollTo({ top: 0, left: 0, behavior: 'instant' }));
    return page.evaluate(() => {
        const els = [...document.querySelectorAll('.time-actions [data-action], .actions [data-action], .player-bar')]
            .filter((el) => el.getClientRects().length && !el.closest('[hidden]'));
        const out = [];
        for (const el of els) {
            const r = el.getBoundingClientRect();
            if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
                out.push(`${el.dataset.action ?? el.className} at ${Math.round(r.top)}–${Math.round(r.bottom)} of ${innerHeight}`);
            }
        }
        return { out, shown: els.map((el) => el.dataset.action).filter(Boolean), scrollY };
    });
}

// Controls without a name a screen reader could read.
async function unnamed(page) {
    return page.evaluate(() => [...document.querySelectorAll('button, a[href], input, select, [role="button"]')]
        .filter((el) => !el.closest('[hidden], dialog:not([open])') && el.getClientRects().length)
        .filter((el) => !(el.getAttribute('aria-label') || el.textContent.trim() || el.labels?.length
                          || el.getAttribute('title') || el.getAttribute('placeholder')))
        .map((el) => el.outerHTML.slice(0, 80)));
}

test('every game page fits 390×844, 760×900, 1024×600 and 1366×768 with its board and status in view', { timeout: 240000 }, async () => {
    for (const variant of ['chessence', 'chesica', 'sniderman']) {
        const [a, b] = await newGame(variant);
        if (variant !== 'sniderman') {
            await playMove(a, chooser(1));
            await b.waitForSelector('#board[data-ply="1"]');
        }
        for (const size of SIZES) {
            await a.setViewportSize(size);
            await a.waitForTimeout(150);
            await screenshot(a, `game-${variant}-${size.width}x${size.height}`);
            const problems = await cutOff(a, ['#board svg.board', '.player-bar.top', '.player-bar.bottom', '.status-box']);
            assert.deepEqual(problems, [], `${variant} at ${size.width}×${size.height}`);
            if (size.width < 900) {
                assert.deepEqual(await smallControls(a), [], `${variant} tap targets at ${size.width}×${size.height}`);
            }
            const box = await a.locator('#board svg.board').boundingBox();
            const squares = variant === 'chessence' ? 9 : variant === 'chesica' ? 8 : 4;
            assert.ok(box.height / squares >= (size.height <= 600 ? 50 : 40), `${variant} squares of ${box.height / squares}px`);
            console.log(`${variant} at ${size.width}×${size.height}: ${(box.height / squares).toFixed(1)} px squares`);
        }
        await a.setViewportSize({ width: 1366, height: 768 });
        await a.waitForTimeout(150);
        assert.deepEqual(await cutOff(a, ['#board svg.board', '.player-bar.top', '.player-bar.bottom', '.status-box',
                                          '.chat-form button']), [], `${variant} at 1366×768`);
        const box = await a.locator('#board svg.board').boundingBox();
        const squares = variant === 'chessence' ? 9 : variant === 'chesica' ? 8 : 4;
        assert.ok(box.height / squares >= (variant === 'chessence' ? 70 : 80), `${variant}: ${box.height / squares}px squares at 1366×768`);
        console.log(`${variant} at 1366×768: ${(box.height / squares).toFixed(1)} px squares`);
        const controls = await controlsOutOfView(a);
        assert.ok(controls.shown.includes('resign'), `${variant}: ${controls.shown}`);
        assert.deepEqual(controls.out, [], `${variant}: the game controls and clocks at 1366×768`);
        assert.deepEqual(await unnamed(a), []);
        await screenshot(a, `game-${variant}-desktop`);
        await a.context().close();
        await b.context().close();
    }
});

test('1366×768: the game controls and clocks stay in view beside a long game and a long chat', { timeout: 240000 }, async () => {
    const { context, page: lobby } = await newPage(env.browser);
    env.contexts.push(context);
    await lobby.goto(`${env.server.url}/`);
    const line = (n) => `Line ${n} of a long talk about the game, long enough to fill a few rows of the chat beside the board.`;
    for (const [i, variant] of ['chessence', 'chesica', 'sniderman'].entries()) {
        // A game of 40 plies (Sniderman: rounds of a five-round match) still going, each player in a
        // page of their own.
        let game = null;
        for (let seed = 1; !game || game.result; seed++) {
            assert.ok(seed < 10, `${variant}: a game still going after its plies`);
            game = await socketGame(lobby, { variant, plies: variant === 'sniderman' ? 12 : 40, seed, finish: false, rounds: 5 });
        }
        const pages = [];
        for (const token of game.tokens) {
            const { context: c, page } = await newPage(env.browser, { viewport: { width: 1366, height: 768 } });
            env.contexts.push(c);
            await page.addInitScript((t) => localStorage.setItem('chessence.token', t), token);
            await page.goto(`${env.server.url}/game/${game.gameId}`);
            await page.waitForSelector('#board[data-version]');
            await page.waitForSelector('.actions [data-action="resign"]');
            pages.push(page);
        }
        const [first, second] = pages;
        let seen = await controlsOutOfView(first);
        assert.deepEqual(seen.out, [], `${variant} beside ${game.moves.length} moves`);
        // Five lines from each player (the server's burst), both reading all ten.
        if (i > 0) {
            await first.waitForTimeout(10500); // the chat limit per address is ten lines in 10 s
        }
        for (const page of pages) {
            for (let n = 0; n < 5; n++) {
                await page.fill('.chat-form input', line(n));
                await page.press('.chat-form input', 'Enter');
                await page.waitForFunction(() => document.querySelector('.chat-form input').value === '');
            }
        }
        for (const page of pages) {
            await page.waitForFunction(() => document.querySelectorAll('.chat-log li:not(.chat-empty)').length === 10);
        }
        seen = await controlsOutOfView(first);
        assert.deepEqual(seen.out, [], `${variant} beside a long chat`);
        assert.ok(seen.shown.includes('resign') && (variant === 'sniderman' || seen.shown.includes('draw-offer')), `${variant}: ${seen.shown}`);
        // The move list and the chat scroll inside their boxes.
        if (variant !== 'sniderman') {
            assert.ok(await first.evaluate(() => { const l = document.querySelector('.move-list'); return l.scrollHeight > l.clientHeight; }),
                      `${variant}: the move list scrolls`);
        }
        assert.ok(await first.evaluate(() => { const l = document.querySelector('.chat-log'); return l.scrollHeight > l.clientHeight; }),
                  `${variant}: the chat scrolls`);
        assert.deepEqual([...first.errors, ...second.errors], []);
        await screenshot(first, `game-${variant}-1366x768-long`);
        await first.context().close();
        await second.context().close();
    }
});

test('lobby, rules and invitation pages: nothing cut off, tap targets, names', { timeout: 120000 }, async () => {
    const phone = await person('Pho', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const seekId = await createSeek(phone, { variant: 'chesica', isPrivate: true });
    const guest = await person('Gue', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await guest.goto(`${env.server.url}/join/${seekId}`);
    await guest.waitForSelector('[data-inviter]');
    for (const size of SIZES) {
        await guest.setViewportSize(size);
        assert.deepEqual(await cutOff(guest, ['[data-action="join"]']), [], `invitation at ${size.width}×${size.height}`);
        assert.deepEqual(await smallControls(guest), [], `invitation at ${size.width}×${size.height}`);
    }
    await guest.setViewportSize({ width: 390, height: 844 });
    assert.deepEqual(await unnamed(guest), [], 'invitation');
    await screenshot(guest, 'phone-invitation');
    const desk = await person('Desk');
    for (const path of ['/', '/learn/chessence', '/learn/chesica', '/learn/sniderman']) {
        await desk.goto(`${env.server.url}${path}`);
        await waitOnline(desk);
        await desk.waitForTimeout(400);
        assert.deepEqual(await cutOff(desk), [], `${path} on a desktop`);
        await screenshot(desk, `desktop${path === '/' ? '-lobby' : path.replace(/\//g, '-')}`);
    }
    await desk.click('#settings-button');
    await desk.waitForSelector('#settings[open]');
    await screenshot(desk, 'desktop-settings');
    for (const path of ['/', '/learn/chessence', '/learn/chesica', '/learn/sniderman']) {
        await phone.goto(`${env.server.url}${path}`);
        await waitOnline(phone);
        await phone.waitForTimeout(400);
        for (const size of SIZES) {
            await phone.setViewportSize(size);
            assert.deepEqual(await cutOff(phone), [], `${path} at ${size.width}×${size.height}`);
            if (size.width < 900) {
                assert.deepEqual(await smallControls(phone), [], `${path} at ${size.width}×${size.height}`);
            }
        }
        await phone.setViewportSize({ width: 390, height: 844 });
        assert.deepEqual(await unnamed(phone), [], path);
        await screenshot(phone, `phone${path === '/' ? '-lobby' : path.replace(/\//g, '-')}`);
    }
    // On a phone a guest's name button stands for the gear: it opens the same dialog.
    assert.equal(await phone.isVisible('#settings-button'), false);
    await phone.click('#me-button');
    await phone.waitForSelector('#settings[open]');
    assert.deepEqual(await smallControls(phone), [], 'settings dialog');
    await screenshot(phone, 'phone-settings');
});

test('contrast: text and coordinates at 4.5:1 in dark and light, on every board theme', { timeout: 180000 }, async () => {
    const [a, b] = await newGame('chessence');
    await playMove(a, chooser(2));
    for (const theme of ['dark', 'light']) {
        for (const board of ['wood', 'slate', 'green', 'grey']) {
            await a.evaluate(([t, bd]) => {
                localStorage.setItem('chessence.theme', t);
                localStorage.setItem('chessence.board', bd);
                document.documentElement.dataset.theme = t;
                document.documentElement.dataset.board = bd;
            }, [theme, board]);
            assert.deepEqual(await lowContrast(a), [], `game page, ${theme}, ${board}`);
        }
        await screenshot(a, `game-chessence-${theme}`);
        for (const path of ['/', '/learn/sniderman', '/learn/chesica']) {
            await b.evaluate((t) => { document.documentElement.dataset.theme = t; }, theme);
            await b.goto(`${env.server.url}${path}`);
            await b.evaluate((t) => { document.documentElement.dataset.theme = t; }, theme);
            await b.waitForTimeout(500);
            assert.deepEqual(await lowContrast(b), [], `${path}, ${theme}`);
        }
        await screenshot(b, `learn-chesica-${theme}`);
    }
});

test('sniderman: each player keeps their side of the board for the whole match', { timeout: 240000 }, async () => {
    const [a, b, gameId] = await newGame('sniderman');
    // Where a1's square sits inside the board (not on the page: a click may scroll the page; not
    // its piece, which may be sliding), read in one go (the board redraws between two reads).
    const corner = (p) => p.evaluate(() => {
        const box = document.querySelector('#board [data-square="a1"] .sq-fill').getBoundingClientRect();
        const board = document.querySelector('#board svg.board').getBoundingClientRect();
        return `${Math.round(box.x - board.x)},${Math.round(box.y - board.y)}`;
    });
    const start = { a: await corner(a), b: await corner(b) };
    assert.notEqual(start.a, start.b, 'the two players sit opposite each other');
    const deadline = Date.now() + 200000;
    let rounds = new Set();
    while (!(await a.locator('.banner:not([hidden])').isVisible())) {
        assert.ok(Date.now() < deadline);
        for (const p of [a, b]) {
            await clickIfShown(p.locator('.match button.object-choice').first());
            // The player who sat at the bottom becomes EVEN: no turn of the board.
            await clickIfShown(p.locator('.match button[data-side="even"]'));
            if ((await p.getAttribute('#board', 'data-my-turn')) === 'true') {
                await playMove(p, chooser(rounds.size + 1));
            }
        }
        rounds.add(await a.getAttribute('#board', 'data-round'));
        assert.equal(await corner(a), start.a, 'the first player\'s board never turns');
        assert.equal(await corner(b), start.b, 'the second player\'s board never turns');
        await a.waitForTimeout(40);
    }
    await b.waitForSelector('.banner:not([hidden])');
    const banner = await b.textContent('.banner');
    assert.match(banner, /the match/);
    assert.match(banner, /The last capture, [a-d][1-4]x[a-d][1-4], ended the round/);
    assert.ok(await b.locator('.match .rounds .why').count() >= 2, 'each round says why');
    assert.match(await b.textContent('.match .rounds'), /so (ODD|EVEN) wins/);
    await screenshot(b, 'sniderman-match-result');
    assert.ok(gameId);
});
