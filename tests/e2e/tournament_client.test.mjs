// Client-only tests of the tournament pages (issue 43) against a scripted socket: the standings kept
// from the pushed deltas (by player id, re-sorted by rank, paged by 10; a gap in the versions asks
// for the whole view again), the buttons of a guest, a countdown that is not a live region; and
// presence: a player in an arena watches it again after a reconnect on any page, and a pairing
// takes them to the game.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { WEB_ROOT, launch, newPage } from './lib/browser.mjs';
import { serveStatic } from './lib/static_server.mjs';
import { mockSocket } from './lib/mock_server.mjs';

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
    assert.equal(await page.textContent('.standings tbody tr:first-child .score'), '30');
    assert.equal(await page.locator('.standings tbody tr:first-child .fire').count(), 1);
    assert.equal(await page.locator('.standings tbody tr:first-child .fire-score').count(), 1);
    assert.equal(await page.textContent('.standings tbody tr:nth-child(2) .rank'), '2');

    // Version 4 after 2: one push was missed, so the page asks for the whole view.
    mock.push({ type: 'tournament_standings', tournament_id: 't_1', version: 4, players: 12, status: 'started',
                changed: [line(1, { rank: 1, score: 99 })] });
    await mock.next(isWatch);
    assert.notEqual(await page.textContent('.standings tbody tr:first-child .score'), '99');

    // A guest: Join is disabled, with the hint; the countdown ticks but is not a live region.
    assert.ok(await page.isDisabled('[data-action="join"]'));
    assert.ok(await page.isVisible('[data-hint="sign-in"]'));
    assert.match(await page.textContent('[data-countdown]'), /^Ends in (9|10):\d\d$/);
    assert.equal(await page.locator('[data-countdown]').evaluate((el) => !!el.closest('[aria-live]')), false);
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
