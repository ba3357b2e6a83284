// Client-only tests of the tournament pages (issue 43) against a scripted socket: the standings kept
// from the pushed deltas (by player id, re-sorted by rank, paged by 10; a gap in the versions asks
// for the whole view again), the buttons of a guest, a countdown that is not a live region;
// presence: a player in an arena watches it again after a reconnect on any page, and a pairing
// takes them to the game; the create form's request (HTTP answered by the test) and its refusal;
// a refused join shown beside the buttons, and the podium at the end; the top games' live boards.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { WEB_ROOT, launch, newPage, screenshot } from './lib/browser.mjs';
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

const line = (i, extra = {}) => ({ player_id: `p_${i}`, name: `player${i}`, rank: i, score: 20 - i, rating: 1500,
                                   performance: 1500, games: 1, fire: false, status: 'active', sheet: '2', ...extra });

function tournament(standings, me, version = 1) {
    return { type: 'tournament', tournament: {
        id: 't_1', kind: 'arena', name: 'Mock Arena', variant: 'chessence', clock: { initial: 180, increment: 0 },
        minutes: 30, rated: true, berserkable: true, private: false, created_by: 'ann', status: 'started',
        starts_at: 1764871200000, ends_at: 1764873000000, seconds_to_finish: 600, pairings_closed: false,
        players: standings.length }, standings, version, ...(me ? { me } : {}) };
}

const isWatch = (m) => m.type === 'tournament_watch' && m.tournament_id === 't_1';

test('standings: deltas by player id, re-sorted by rank, paged by 10; a gap asks again', async () => {
    const { context, page } = await newPage(browser);
    const mock = await mockSocket(page);
    await page.goto(`${site.url}/tournament/t_1`);
    await mock.next(isWatch);
    const lines = Array.from({ length: 12 }, (_, i) => line(i + 1));
    mock.push(tournament(lines, null));
    await page.waitForSelector('.standings tr[data-player]');
    assert.equal(await page.locator('.standings tbody tr').count(), 10);
    await page.click('[data-action="next-page"]');
    assert.deepEqual(await page.locator('.standings tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.player)),
                     ['p_11', 'p_12']);
    await page.click('[data-action="prev-page"]');

    // Player 12 wins twice on fire and leads; the others move down one.
    mock.push({ type: 'tournament_standings', tournament_id: 't_1', version: 2, players: 12, status: 'started',
                changed: [line(12, { rank: 1, score: 30, fire: true, sheet: '422', games: 3 }),
                          ...lines.slice(0, 11).map((l) => ({ ...l, rank: l.rank + 1 }))] });
    await page.waitForSelector('.standings tbody tr:first-child[data-player="p_12"]');
    assert.equal(await page.textContent('.standings tbody tr:first-child .points'), '30');
    assert.equal(await page.locator('.standings tbody tr:first-child .fire').count(), 1);
    assert.equal(await page.locator('.standings tbody tr:first-child .fire-score').count(), 1);
    assert.equal(await page.textContent('.standings tbody tr:nth-child(2) .rank'), '2');

    // Version 4 after 2: one push was missed, so the page asks for the whole view.
    mock.push({ type: 'tournament_standings', tournament_id: 't_1', version: 4, players: 12, status: 'started',
                changed: [line(1, { rank: 1, score: 99 })] });
    await mock.next(isWatch);
    assert.notEqual(await page.textContent('.standings tbody tr:first-child .points'), '99');

    // A guest: Join is disabled, with the hint; the countdown ticks but is not a live region.
    assert.ok(await page.isDisabled('[data-action="join"]'));
    assert.ok(await page.isVisible('[data-hint="sign-in"]'));
    assert.match(await page.textContent('[data-countdown]'), /^Ends in (9|10):\d\d$/);
    assert.equal(await page.locator('[data-countdown]').evaluate((el) => !!el.closest('[aria-live]')), false);
    // On a phone the page fits its width.
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
    await screenshot(page, 'arena-phone');
    assert.deepEqual(page.errors, []);
    await context.close();
});

test('presence: a player in an arena watches it from every page, again after a reconnect; a pairing goes to the game', async () => {
    const { context, page } = await newPage(browser);
    const mock = await mockSocket(page);
    await page.goto(`${site.url}/tournament/t_1`);
    await mock.next(isWatch);
    mock.push(tournament([line(1, { player_id: 'p_me' })], { ...line(1, { player_id: 'p_me' }) }));
    await page.waitForSelector('.standings tr[data-player="p_me"].me');

    // Leaving for the lobby keeps the watch (no unwatch), and a new connection watches it again.
    await page.click('.site-nav a[data-nav="play"]');
    await page.waitForFunction(() => location.pathname === '/');
    assert.equal(mock.sent.some((m) => m.type === 'tournament_unwatch'), false);
    assert.deepEqual(await page.evaluate(() => JSON.parse(sessionStorage.getItem('chessence.tournaments'))), ['t_1']);
    await page.evaluate(() => window.chessence.conn.drop_());
    await mock.next(isWatch, 10000);

    mock.push({ type: 'tournament_paired', tournament_id: 't_1', game_id: 'g_9', you: 'white' });
    await page.waitForFunction(() => location.pathname === '/game/g_9');
    assert.ok(await page.evaluate(() => window.chessence.soundLog.includes('notify')));

    // The end of the arena: it is forgotten, and the watch ends once no page shows it.
    mock.push({ type: 'tournament_finished', tournament_id: 't_1', podium: [] });
    await mock.next((m) => m.type === 'tournament_unwatch' && m.tournament_id === 't_1');
    assert.deepEqual(await page.evaluate(() => JSON.parse(sessionStorage.getItem('chessence.tournaments'))), []);
    assert.deepEqual(page.errors, []);
    await context.close();
});

// A second welcome, as for an account: the pages show what accounts may do.
const asAccount = (mock) => mock.push({ type: 'welcome', protocol: 1, server: 'mock', player: { id: 'p_me', name: 'me' },
                                        token: 'tok', games: [], account: { username: 'me' } });

test('create form: lichess\'s fields with the bearer token; a refusal shows its code; then the new page', async () => {
    const { context, page } = await newPage(browser);
    const mock = await mockSocket(page);
    const posts = [];
    let answer = { status: 400, body: { code: 'bad_field', error: '`minutes` (20-180) is required' } };
    await page.route('**/api/tournament', (route) => {
        const req = route.request();
        if (req.method() === 'GET') {
            return route.fulfill({ json: { created: [], started: [], finished: [] } });
        }
        posts.push({ body: new URLSearchParams(req.postData()), auth: req.headers().authorization,
                     type: req.headers()['content-type'] });
        return route.fulfill({ status: answer.status, json: answer.body });
    });
    await page.goto(`${site.url}/tournaments`);
    await page.waitForSelector('[data-hint="sign-in"]');
    assert.equal(await page.locator('form[data-form="tournament"]').count(), 0);
    await mock.next((m) => m.type === 'hello');
    asAccount(mock);
    const form = 'form[data-form="tournament"]';
    await page.waitForSelector(form);
    await page.fill(`${form} input[name="name"]`, 'Friday Chesica');
    await page.selectOption(`${form} select[name="variant"]`, 'chesica');
    await page.selectOption(`${form} select[name="rules"]`, 'strict');
    await page.fill(`${form} input[name="minutes"]`, '0.5');
    await page.fill(`${form} input[name="increment"]`, '1');
    await page.fill(`${form} input[name="duration"]`, '30');
    await page.fill(`${form} input[name="wait"]`, '10');
    await page.uncheck(`${form} input[name="rated"]`);
    await page.fill(`${form} input[name="password"]`, 'secret');
    await page.click('[data-action="create-tournament"]');
    await page.waitForSelector(`${form} .form-error[data-code="bad_field"]:not([hidden])`);
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, 'the form fits a phone');
    assert.match(await page.textContent(`${form} .form-error`), /^bad_field: `minutes`/);
    const sent = posts[0];
    assert.equal(sent.auth, 'Bearer tok');
    assert.equal(sent.type, 'application/x-www-form-urlencoded');
    assert.deepEqual(Object.fromEntries(sent.body), {
        name: 'Friday Chesica', variant: 'chesica', rules: 'strict', clockTime: '0.5', clockIncrement: '1',
        minutes: '30', waitMinutes: '10', rated: 'false', berserkable: 'true', password: 'secret' });

    answer = { status: 200, body: { id: 't_9', fullName: 'Friday Chesica' } };
    await page.click('[data-action="create-tournament"]');
    await page.waitForFunction(() => location.pathname === '/tournament/t_9');
    await mock.next((m) => m.type === 'tournament_watch' && m.tournament_id === 't_9');
    // The refusal's 400 is logged by the browser; nothing else went wrong.
    assert.deepEqual(page.errors.filter((e) => !e.includes('status of 400')), []);
    await context.close();
});

test('tournament page: a refused join shows its code beside the buttons; the end shows the podium', async () => {
    const { context, page } = await newPage(browser);
    const mock = await mockSocket(page);
    await page.goto(`${site.url}/tournament/t_1`);
    await mock.next(isWatch);
    asAccount(mock);
    const others = [line(1), line(2), line(3)];
    mock.push(tournament(others, null));
    await page.waitForSelector('[data-action="join"]:not([disabled])');
    await page.click('[data-action="join"]');
    const join = await mock.next((m) => m.type === 'tournament_join');
    assert.equal(join.tournament_id, 't_1');
    mock.push({ type: 'error', id: join.id, code: 'tournament_finished', message: 'the tournament is over' });
    await page.waitForSelector('.tournament-actions .form-error[data-code="tournament_finished"]');
    assert.equal(await page.textContent('.tournament-actions .form-error'), 'the tournament is over (tournament_finished)');
    // Not as a toast as well.
    assert.equal(await page.isVisible('#toast'), false);

    mock.push({ type: 'tournament_finished', tournament_id: 't_1', podium: others });
    await page.waitForSelector('.podium li[data-place="3"]');
    assert.deepEqual(await page.locator('.podium li a').allTextContents(), ['player1', 'player2', 'player3']);
    assert.equal(await page.locator('[data-action="join"]').count(), 0);
    assert.equal(await page.textContent('[data-countdown]'), 'The tournament is over.');
    assert.deepEqual(page.errors, []);
    await context.close();
});

test('top games: small live boards, each game watched, its moves drawn, unwatched once gone', async () => {
    const { context, page } = await newPage(browser);
    const mock = await mockSocket(page);
    await page.goto(`${site.url}/tournament/t_1`);
    await mock.next(isWatch);
    const duel = { game_id: 'g_5', first: { player_id: 'p_1', name: 'player1', rank: 1, rating: 1600 },
                   second: { player_id: 'p_2', name: 'player2', rank: 2, rating: 1550 } };
    mock.push({ ...tournament([line(1), line(2)], null), duels: [duel] });
    await mock.next((m) => m.type === 'watch' && m.game_id === 'g_5');
    const fen = 'km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*3MM/4MK[MMMmmm] w 0 1';
    const after = 'km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] b 0 1';
    mock.push({ type: 'snapshot', game_id: 'g_5', version: 3, variant: 'chessence', rules: 'house',
                players: [{ seat: 'white', id: 'p_1', name: 'player1' }, { seat: 'black', id: 'p_2', name: 'player2' }],
                start_fen: fen, fen, moves: [], to_move: 'white', board: boardFromFen('chessence', fen), legal: [] });
    await page.waitForSelector('li[data-duel="g_5"] .duel-board[data-ply="0"] svg.board');
    assert.match(await page.textContent('li[data-duel="g_5"] a'), /player1 \(#1, 1600\).*vs.*player2/);
    assert.equal(await page.getAttribute('li[data-duel="g_5"] a', 'href'), '/game/g_5');
    // The board is decoration beside the link: no tab stop, hidden from screen readers.
    assert.equal(await page.locator('.duel-board[inert][aria-hidden="true"]').count(), 1);
    mock.push({ type: 'event', game_id: 'g_5', version: 4,
                event: { kind: 'move', move: 'c2-c3', by: 'white', fen: after, board: boardFromFen('chessence', after),
                         to_move: 'black', legal: [] } });
    await page.waitForSelector('.duel-board[data-ply="1"]');
    await screenshot(page, 'arena-duels');

    // The game leaves the top games: it is no longer watched.
    mock.push({ type: 'tournament_standings', tournament_id: 't_1', version: 2, players: 2, status: 'started',
                changed: [], duels: [] });
    await mock.next((m) => m.type === 'unwatch' && m.game_id === 'g_5');
    await page.waitForSelector('.duels .empty');
    assert.deepEqual(page.errors, []);
    await context.close();
});
