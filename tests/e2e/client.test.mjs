// Client-only tests: the page against a scripted socket (no server needed). They check drawing and
// input for each board: click moves, drags, drops from the reserve, Chesica jump chains entered
// square by square, and the Sniderman match panel.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, screenshot, WEB_ROOT } from './lib/browser.mjs';
import { serveStatic } from './lib/static_server.mjs';
import { mockSocket } from './lib/mock_server.mjs';
import { boardFromFen } from '../../web-client/protocol.js';

let browser;
let site;
before(async () => {
    browser = await launch();
    site = await serveStatic(WEB_ROOT);
});
after(async () => {
    await browser?.close();
    site?.close();
});

function snapshot(variant, fen, extra = {}) {
    return {
        type: 'snapshot', game_id: 'g_1', version: 3, variant, rules: 'house',
        players: [{ seat: variant === 'sniderman' ? 'player0' : 'white', id: 'p_me', name: 'Me', online: true },
                  { seat: variant === 'sniderman' ? 'player1' : 'black', id: 'p_you', name: 'You', online: true }],
        start_fen: fen, fen, moves: [], to_move: variant === 'sniderman' ? null : 'white',
        board: boardFromFen(variant, fen), legal: [], in_check: false, result: null, draw_offer: null,
        rematch_offer: null, spectators: 1, chat: [], match: null, ...extra,
    };
}

async function openGame(extra = {}) {
    const { context, page } = await newPage(browser, extra.contextOptions ?? {});
    const mock = await mockSocket(page);
    await page.goto(`${site.url}/#/game/g_1`);
    await mock.next((m) => m.type === 'watch' && m.game_id === 'g_1');
    return { context, page, mock };
}

const click = (page, sq) => page.click(`#board [data-square="${sq}"]`);

test('chessence: moves by click and by drag, drops from the reserve, missing squares absent', async () => {
    const fen = 'km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*3MM/4MK[MMMmmm] w 0 1';
    const { context, page, mock } = await openGame();
    mock.push(snapshot('chessence', fen, { legal: ['@d2', 'd3-c4', 'd3-c2', 'e3-e4', 'e3-e6'], moves: [] }));
    await page.waitForSelector('#board[data-legal*="e3-e4"]');
    assert.equal(await page.locator('#board .void').count(), 8, 'eight missing squares drawn as holes');
    assert.equal(await page.locator('#board [data-square="a2"]').count(), 0);
    await click(page, 'e3');
    await page.waitForSelector('#board [data-square="e4"].dest');
    await screenshot(page, 'client-chessence-selected');
    await click(page, 'e4');
    assert.equal((await mock.next((m) => m.type === 'move')).move, 'e3-e4');
    mock.push(snapshot('chessence', fen, { legal: ['@d2', 'd3-c4', 'd3-c2', 'e3-e4'], version: 4 }));
    await page.waitForSelector('#board[data-version="4"]');
    const from = await page.locator('#board [data-square="d3"]').boundingBox();
    const to = await page.locator('#board [data-square="c4"]').boundingBox();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 6 });
    await page.mouse.up();
    assert.equal((await mock.next((m) => m.type === 'move')).move, 'd3-c4');
    mock.push(snapshot('chessence', fen, { legal: ['@d2', 'd3-c4'], version: 5 }));
    await page.waitForSelector('#board[data-version="5"]');
    await page.click('[data-reserve="white"]');
    await page.waitForSelector('#board [data-square="d2"].dest');
    await click(page, 'd2');
    assert.equal((await mock.next((m) => m.type === 'move')).move, '@d2');
    assert.deepEqual(page.errors, []);
    await context.close();
});

test('after a game, "New opponent" seeks the same game, rules, time control and rated', async () => {
    const { context, page, mock } = await openGame();
    // A rated game's bars ask for each player's rating: the static server has no API.
    await page.route('**/api/players/*', (route) => route.fulfill({ json: { account: true, ratings: {} } }));
    mock.push(snapshot('chesica', '8/8/3b1b2/8/3b4/2B5/1r6/R7 w 0 1', {
        to_move: null, result: { winner: 'white', reason: 'resignation' },
        time_control: { initial: 180, increment: 2 }, clock: { white: 170000, black: 95000, running: null },
        rated: true }));
    await page.click('[data-action="new-opponent"]');
    const pair = await mock.next((m) => m.type === 'quick_pair');
    assert.equal(pair.variant, 'chesica');
    assert.equal(pair.rules, 'house');
    assert.deepEqual(pair.clock, { initial: 180, increment: 2 }, 'the time control is kept');
    assert.equal(pair.rated, true, 'a rated game asks for a rated one');
    assert.deepEqual(page.errors, []);
    await context.close();
});

test('chesica: a jump chain is entered square by square; promoted pieces are marked', async () => {
    const { context, page, mock } = await openGame();
    mock.push(snapshot('chesica', '8/8/3b1b2/8/3b4/2B5/1r6/R7 w 0 1', { legal: ['c3xe5xc7', 'c3xe5xg7'] }));
    await page.waitForSelector('#board[data-legal*="c3xe5xc7"]');
    await click(page, 'c3');
    await click(page, 'e5');
    await page.waitForSelector('#board [data-square="c7"].dest');
    assert.equal(await page.locator('#board .dest').count(), 2);
    await click(page, 'c7');
    assert.equal((await mock.next((m) => m.type === 'move')).move, 'c3xe5xc7');
    mock.push(snapshot('chesica', '1+B1+B1+B1+b/B1B1B1B1/8/8/8/8/8/+q7 w 0 1', { version: 4 }));
    await page.waitForSelector('#board[data-version="4"]');
    assert.equal(await page.locator('#board .piece.promoted').count(), 5);
    await screenshot(page, 'client-chesica-promoted');
    assert.deepEqual(page.errors, []);
    await context.close();
});

test('sniderman: naming, choosing and playing from the match panel', async () => {
    const fen = 'qbnr/rnbk/KBNR/RNBQ 1';
    const objects = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => ({ object: n, text: `object text ${n}`, available: n !== 2 }));
    const match = { rounds: 3, round: 2, phase: 'naming', namer: 'player0', chooser: 'player1', odd: null,
                    even: null, objects, object: null, score: [0, 1],
                    records: [{ start: fen, object: 2, odd: 'player1', moves: ['a1xb2'], winner: 'player1' }], winner: null };
    const { context, page, mock } = await openGame();
    mock.push(snapshot('sniderman', fen, { match }));
    await page.waitForSelector('.match [data-object="3"]');
    assert.equal(await page.locator('.match button[data-object]').count(), 9, 'used objects are not offered');
    assert.equal(await page.locator('#board .sq.red').count(), 8);
    await screenshot(page, 'client-sniderman-naming');
    await page.click('.match button[data-object="3"]');
    assert.equal((await mock.next((m) => m.type === 'name_object')).object, 3);
    mock.push({ type: 'event', game_id: 'g_1', version: 4, event: { kind: 'object_named', object: 3, text: 'object text 3' } });
    mock.push({ type: 'event', game_id: 'g_1', version: 5, event: { kind: 'side_chosen', odd: 'player1', even: 'player0',
                to_move: 'odd', legal: ['a1xb2'] } });
    await page.waitForSelector('.match[data-phase="playing"]');
    assert.equal(await page.getAttribute('#board', 'data-my-turn'), 'false');
    mock.push({ type: 'event', game_id: 'g_1', version: 6, event: { kind: 'move', move: 'a1xb2', by: 'odd', fen,
                board: boardFromFen('sniderman', fen), to_move: 'even', legal: ['b1xa1', 'b1xc2'], in_check: false, ply: 1 } });
    await page.waitForSelector('#board[data-my-turn="true"]');
    await click(page, 'b1');
    await click(page, 'c2');
    assert.equal((await mock.next((m) => m.type === 'move')).move, 'b1xc2');
    await screenshot(page, 'client-sniderman-playing');
    assert.deepEqual(page.errors, []);
    await context.close();
});

test('keyboard: squares take focus and Enter selects and moves', async () => {
    const { context, page, mock } = await openGame();
    mock.push(snapshot('chesica', '1q1q1q1q/r1r1r1r1/1b1b1b1b/8/8/B1B1B1B1/1R1R1R1R/Q1Q1Q1Q1 w 0 1',
                       { legal: ['a3-b4', 'c3-b4', 'c3-d4'] }));
    await page.waitForSelector('#board[data-legal*="a3-b4"]');
    await page.focus('#board [data-square="a3"]');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    assert.equal((await mock.next((m) => m.type === 'move')).move, 'a3-b4');
    await context.close();
});

test('phone viewport: the board fits the width and the panels stack', async () => {
    const { context, page, mock } = await openGame({ contextOptions: { viewport: { width: 390, height: 844 },
                                                                        hasTouch: true, isMobile: true } });
    const fen = 'km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w 0 1';
    mock.push(snapshot('chessence', fen, { legal: ['e3-e4'] }));
    await page.waitForSelector('#board[data-legal]');
    const box = await page.locator('#board svg.board').boundingBox();
    assert.ok(box.width <= 390 && box.width > 200, `board width ${box.width}`);
    await page.tap('#board [data-square="e3"]');
    await page.tap('#board [data-square="e4"]');
    assert.equal((await mock.next((m) => m.type === 'move')).move, 'e3-e4');
    await screenshot(page, 'client-phone');
    await context.close();
});

test('review: a late spectator gets earlier positions from the snapshot and steps through them', async () => {
    const { context, page, mock } = await openGame();
    const fens = ['8/8/8/8/8/2B5/8/8 w 0 1', '8/8/8/8/3B4/8/8/8 b 0 1', '8/8/8/4B3/8/8/8/8 w 0 2'];
    mock.push(snapshot('chesica', fens[2], { version: 2, moves: ['c3-d4', 'd4-e5'], start_fen: fens[0],
                                             positions: fens, players: [] }));
    await page.click('.move-list .mv[data-ply="1"]');
    await page.waitForSelector('#board[data-live="false"][data-ply="1"]');
    assert.equal(await page.getAttribute('#board [data-square="d4"]', 'data-piece'), 'B');
    await page.click('[data-nav="first"]');
    assert.equal(await page.getAttribute('#board [data-square="c3"]', 'data-piece'), 'B');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('#board[data-live="true"]');
    assert.equal(await page.getAttribute('#board [data-square="e5"]', 'data-piece'), 'B');
    mock.push({ type: 'event', game_id: 'g_1', version: 4, event: { kind: 'chat', from: 'X', text: 'gap' } });
    assert.equal((await mock.next((m) => m.type === 'watch' && m.since === 2)).game_id, 'g_1',
                 'a gap in versions asks for the missing events');
    // The catch-up: one frame with the missed events and the position they leave.
    mock.push({ type: 'events', game_id: 'g_1', version: 4, position: { fen: fens[1],
        board: boardFromFen('chesica', fens[1]), to_move: 'black', legal: [], in_check: false },
        events: [{ version: 3, event: { kind: 'move', move: 'e5-d4', by: 'white', ply: 3, fen: fens[1] } },
                 { version: 4, event: { kind: 'chat', from: 'X', text: 'gap' } }] });
    await page.waitForSelector('.move-list .mv[data-ply="3"]');
    await page.waitForSelector('#board[data-version="4"]');
    assert.equal(await page.getAttribute('#board [data-square="d4"]', 'data-piece'), 'B');
    assert.deepEqual(page.errors, []);
    await context.close();
});

// A scripted socket whose first `failures` hellos are answered with `code` (bad_token is followed
// by a welcome for a new guest, as the server does; `null`: no answer at all); every other hello
// gets a welcome.
async function helloSocket(page, { failures = 1, code = 'internal_error' } = {}) {
    const seen = { hellos: [], sockets: 0 };
    await page.routeWebSocket(/\/ws$/, (ws) => {
        seen.sockets++;
        ws.onMessage((data) => {
            const msg = JSON.parse(String(data));
            if (msg.type !== 'hello') {
                return;
            }
            seen.hellos.push(msg);
            const welcome = (token) => ws.send(JSON.stringify({ type: 'welcome', protocol: 1, server: 'mock',
                player: { id: 'p_me', name: 'Me' }, token, games: [] }));
            if (seen.hellos.length > failures) {
                welcome(msg.token ?? 'tok_new');
                return;
            }
            if (code === null) {
                return;
            }
            const message = { bad_token: 'unknown token; you are a new guest',
                              rate_limited: 'too many new guests from your address in the last hour; try again later' }[code];
            ws.send(JSON.stringify({ type: 'error', code, message: message ?? 'the server could not read your account; try again' }));
            if (code === 'bad_token') {
                welcome('tok_new');
            }
        });
    });
    return seen;
}

async function until(check, what, timeoutMs = 10000) {
    const end = Date.now() + timeoutMs;
    while (!check()) {
        assert.ok(Date.now() < end, `timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
}

test('hello: an internal_error keeps the token, and the client reconnects and says hello again', async () => {
    const { context, page } = await newPage(browser);
    await context.addInitScript(() => {
        if (!sessionStorage.getItem('seeded')) {
            sessionStorage.setItem('seeded', '1');
            localStorage.setItem('chessence.token', 'tok_kept');
        }
    });
    const seen = await helloSocket(page, { failures: 2 });
    await page.goto(`${site.url}/`);
    await until(() => seen.hellos.length >= 3, 'a third hello');
    assert.deepEqual(seen.hellos.map((h) => h.token), ['tok_kept', 'tok_kept', 'tok_kept']);
    assert.equal(seen.sockets, 3, 'each hello again on a new connection');
    await page.waitForFunction(() => document.getElementById('toast').textContent.includes('could not read your account'));
    assert.equal(await page.evaluate(() => localStorage.getItem('chessence.token')), 'tok_kept');
    assert.deepEqual(page.errors, []);
    await context.close();
});

test('hello: unanswered, or refused for now (rate_limited), is said again on a new connection', async () => {
    const { context, page } = await newPage(browser);
    const seen = await helloSocket(page, { failures: 1, code: null });
    await page.goto(`${site.url}/`);
    await until(() => seen.hellos.length >= 1, 'a hello');
    assert.equal(await page.getAttribute('#conn', 'data-state'), 'connecting', 'no welcome yet');
    // Given up after 8 s of silence: a new connection and a new hello, welcomed this time.
    await page.waitForSelector('#conn[data-state="online"]', { timeout: 15000 });
    assert.deepEqual([seen.sockets, seen.hellos.length], [2, 2]);
    const { context: second, page: refused } = await newPage(browser);
    const again = await helloSocket(refused, { failures: 1, code: 'rate_limited' });
    await refused.goto(`${site.url}/`);
    await refused.waitForSelector('#conn[data-state="online"]', { timeout: 5000 });
    assert.deepEqual([again.sockets, again.hellos.length], [2, 2]);
    await refused.waitForFunction(() => /too many new guests/i.test(document.getElementById('toast').textContent));
    assert.deepEqual([...page.errors, ...refused.errors], []);
    await context.close();
    await second.close();
});

test('hello: bad_token, and only bad_token, replaces the stored token', async () => {
    const { context, page } = await newPage(browser);
    await context.addInitScript(() => {
        if (!sessionStorage.getItem('seeded')) {
            sessionStorage.setItem('seeded', '1');
            localStorage.setItem('chessence.token', 'tok_stale');
        }
    });
    const seen = await helloSocket(page, { code: 'bad_token' });
    await page.goto(`${site.url}/`);
    await until(() => seen.hellos.length >= 1, 'a hello');
    await page.waitForFunction(() => localStorage.getItem('chessence.token') === 'tok_new');
    assert.equal(seen.sockets, 1, 'a bad token is no reason to reconnect');
    await context.close();
});

test('game page: a game the server could not load is asked for again', async () => {
    const { context, page, mock } = await openGame();
    mock.push({ type: 'error', code: 'internal_error', message: 'the server could not load this game; try again',
                game_id: 'g_1' });
    await page.waitForSelector('text=The game could not be loaded; trying again');
    await mock.next((m) => m.type === 'watch' && m.game_id === 'g_1', 8000);
    const fen = '8/8/8/8/8/2B5/8/8 w 0 1';
    mock.push(snapshot('chesica', fen, { legal: ['c3-d4'] }));
    await page.waitForSelector('#board[data-legal*="c3-d4"]');
    assert.deepEqual(page.errors, []);
    await context.close();
});

test('cluster: a game another server owns — the client reconnects and watches it again from where it was', async () => {
    const { context, page, mock } = await openGame();
    mock.push(snapshot('chesica', '8/8/8/8/8/2B5/8/8 w 0 1', { legal: ['c3-d4'] }));
    await page.waitForSelector('#board[data-legal*="c3-d4"]');
    const hellos = () => mock.sent.filter((m) => m.type === 'hello').length;
    assert.equal(hellos(), 1);
    mock.push({ type: 'error', code: 'server_restarting', id: null, game_id: 'g_1',
                message: 'this game is moving to another server: reconnect in a moment and send this again' });
    await until(() => hellos() === 2, "a new connection's hello", 5000);
    const again = await mock.next((m) => m.type === 'watch' && m.game_id === 'g_1');
    assert.equal(again.since, 3, 'watched again from the last version seen');
    assert.deepEqual(page.errors, []);
    await context.close();
});
