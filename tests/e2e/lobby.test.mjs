// The lobby in deltas (issue 24): after the `lobby` that answers lobby_subscribe, the server only
// tells what changed (seek_added/seek_removed, game_added/game_removed/game_changed). Against the
// real server: a seek shows up in another player's open lobby and leaves it without a reload, and a
// game started from the lobby comes and goes in a third page's "Games in progress", which never gets
// a second `lobby`. Against a scripted socket: the deltas applied, and "Show more games".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage } from './lib/browser.mjs';
import { suite } from './lib/suite.mjs';
import { recordFrames, frameTypes } from './lib/frames.mjs';
import { mockSocket } from './lib/mock_server.mjs';
import { chooser, createSeek, gameIdOf, playMove, setName, waitOnline } from './lib/play.mjs';

const env = suite();

// A player on the lobby, every frame its page receives recorded from the start.
async function person(name) {
    const { context, page } = await newPage(env.browser);
    env.contexts.push(context);
    const frames = recordFrames(page);
    await page.goto(`${env.server.url}/`);
    await waitOnline(page);
    await setName(page, name);
    // Set once: still there at the end only if the page was never reloaded.
    await page.evaluate(() => { window.sameDocument = true; });
    return { page, frames };
}

async function until(check, what, timeoutMs = 10000) {
    const end = Date.now() + timeoutMs;
    while (!check()) {
        assert.ok(Date.now() < end, `timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
}

const gameRow = (id) => `[data-list="games"] [data-game="${id}"]`;
const notReloaded = (page) => page.evaluate(() => window.sameDocument === true);

test('lobby deltas: seeks and games come and go without a reload, one `lobby` per page', { timeout: 180000 }, async () => {
    const ann = await person('Ann');
    const ben = await person('Ben');
    const cat = await person('Cat');
    // Everyone's lobby has arrived before anything happens.
    for (const p of [ann, ben, cat]) {
        await until(() => p.frames.some((m) => m.type === 'lobby'), 'the lobby');
    }

    // A seek appears in the others' open lobbies, and leaves when Ann cancels it.
    const cancelled = await createSeek(ann.page, { variant: 'chesica', side: 'white' });
    await ben.page.waitForSelector(`tr[data-seek="${cancelled}"] [data-accept]`);
    await cat.page.waitForSelector(`tr[data-seek="${cancelled}"]`);
    await ann.page.click(`[data-my-seek="${cancelled}"] [data-cancel]`);
    await ben.page.waitForSelector(`tr[data-seek="${cancelled}"]`, { state: 'detached' });
    await cat.page.waitForSelector(`tr[data-seek="${cancelled}"]`, { state: 'detached' });
    await ann.page.waitForSelector(`[data-my-seek="${cancelled}"]`, { state: 'detached' });

    // A game started from the lobby shows in Cat's "Games in progress"; its counters follow.
    const seekId = await createSeek(ann.page, { variant: 'chesica', side: 'white' });
    await ben.page.click(`tr[data-seek="${seekId}"] [data-accept]`);
    const gameId = await gameIdOf(ann.page);
    assert.equal(await gameIdOf(ben.page), gameId);
    await cat.page.waitForSelector(gameRow(gameId));
    await cat.page.waitForSelector(`tr[data-seek="${seekId}"]`, { state: 'detached' });
    assert.match(await cat.page.textContent(gameRow(gameId)), /Ann – Ben|Ben – Ann/);
    await ann.page.waitForSelector('#board[data-my-turn="true"]');
    await playMove(ann.page, chooser(1));
    await cat.page.waitForFunction((sel) => /\b1 move\b/.test(document.querySelector(sel)?.textContent ?? ''),
                                   gameRow(gameId));

    // Ann resigns: the game leaves Cat's list.
    await ann.page.click('[data-action="resign"]');
    await ann.page.click('[data-action="resign"]');
    await ann.page.waitForSelector('.banner:not([hidden])');
    await cat.page.waitForSelector(gameRow(gameId), { state: 'detached' });

    // All of it came as deltas to a page that was never reloaded and got no second `lobby`.
    const types = frameTypes(cat.frames);
    assert.equal(types.filter((t) => t === 'lobby').length, 1, `Cat's frames: ${types}`);
    const first = types.indexOf('lobby');
    for (const t of ['seek_added', 'seek_removed', 'game_added', 'game_changed', 'game_removed']) {
        assert.ok(types.indexOf(t) > first, `Cat got ${t} after the lobby: ${types}`);
    }
    for (const p of [ben, cat]) {
        assert.ok(await notReloaded(p.page), 'the lobby page was not reloaded');
    }
    for (const p of [ann, ben, cat]) {
        assert.deepEqual(p.page.errors, []);
    }
});

// Against a scripted socket: what each delta does to the lists, and the pages of games.
const summary = (n, moves = 0) => ({ game_id: `g_${n}`, variant: 'chesica', rules: 'house',
                                     players: { white: `W${n}`, black: `B${n}` }, moves, spectators: 0,
                                     clock: null, rated: false });
const seek = (id, creator) => ({ seek_id: id, variant: 'chessence', rules: 'house', side: 'random', private: false,
                                 creator: { id: creator, name: creator === 'p_me' ? 'Me' : 'Other' },
                                 created_at: 1700000000 });
const shownGames = (page) => page.evaluate(() =>
    [...document.querySelectorAll('[data-list="games"] [data-game]')].map((e) => e.dataset.game));

test('lobby deltas, scripted: applied to the lists; "Show more games" appends the next page once',
     { timeout: 60000 }, async () => {
    const { context, page } = await newPage(env.browser);
    env.contexts.push(context);
    const mock = await mockSocket(page);
    await page.goto(`${env.server.url}/`);
    const subscribe = await mock.next((m) => m.type === 'lobby_subscribe');
    // The first page: 50 of 53 games, newest first.
    const first = Array.from({ length: 50 }, (_, i) => summary(53 - i));
    mock.push({ type: 'lobby', id: subscribe.id, seeks: [seek('s_1', 'p_other')], games: first, games_total: 53 });
    await page.waitForFunction(() => document.querySelectorAll('[data-list="games"] [data-game]').length === 50);
    assert.equal(await page.textContent('#games-title .badge'), '53');

    // Show more: the next page from 50; a game already shown is not shown twice.
    await page.click('button.btn[data-more-games]');
    const ask = await mock.next((m) => m.type === 'lobby_games');
    assert.equal(ask.offset, 50);
    assert.equal(ask.limit, 50);
    mock.push({ type: 'lobby_games', id: ask.id, offset: 50, total: 53,
                games: [summary(4), summary(3), summary(2), summary(1)] });
    await page.waitForFunction(() => document.querySelectorAll('[data-list="games"] [data-game]').length === 53);
    const all = await shownGames(page);
    assert.equal(new Set(all).size, 53, 'no game twice');
    assert.equal(all.at(-1), 'g_1');
    assert.equal(await page.locator('[data-more-games]').count(), 0, 'no button once every game is shown');

    // game_changed: the rows shown take the new counters; games not shown are ignored.
    mock.push({ type: 'game_changed', games: [summary(52, 7), summary(99, 3)] });
    await page.waitForFunction(() => /7 moves/.test(document.querySelector('[data-game="g_52"]')?.textContent ?? ''));
    assert.equal(await page.locator('[data-game="g_99"]').count(), 0);
    // game_removed and game_added.
    mock.push({ type: 'game_removed', game_id: 'g_52' });
    await page.waitForSelector('[data-game="g_52"]', { state: 'detached' });
    mock.push({ type: 'game_added', game: summary(54) });
    await page.waitForSelector('[data-game="g_54"]');
    assert.equal((await shownGames(page))[0], 'g_54', 'a new game comes first');
    assert.equal(await page.textContent('#games-title .badge'), '53');

    // Seeks: added at the end, removed; my own public seek is also mine until it leaves.
    mock.push({ type: 'seek_added', seek: seek('s_2', 'p_other') });
    await page.waitForSelector('tr[data-seek="s_2"] [data-accept]');
    mock.push({ type: 'seek_removed', seek_id: 's_1' });
    await page.waitForSelector('tr[data-seek="s_1"]', { state: 'detached' });
    mock.push({ type: 'seek_added', seek: seek('s_3', 'p_me') });
    await page.waitForSelector('[data-my-seek="s_3"]');
    await page.waitForSelector('tr[data-seek="s_3"] [data-cancel]');
    mock.push({ type: 'seek_removed', seek_id: 's_3' });
    await page.waitForSelector('[data-my-seek="s_3"]', { state: 'detached' });
    await page.waitForSelector('tr[data-seek="s_3"]', { state: 'detached' });
    assert.equal(await page.evaluate(() => window.chessence.mySeeks.has('s_3')), false);
    assert.deepEqual(page.errors, []);
});
