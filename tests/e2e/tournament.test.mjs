// Arenas in Chromium against the real server (issue 43, slice 3): an account creates an arena with
// the tournaments page's form (starting at once); two accounts join it on its page and are paired
// (both pages go to the game by themselves, with a sound); Black goes berserk (their clock halves,
// both pages mark it); White moves, pauses and resigns; a guest watching the tournament page sees
// the winner's score become 2; both players are taken back to the tournament page by themselves,
// where a line White types in the chat appears on Black's page and the guest's.
import assert from 'node:assert/strict';
import { newPage, screenshot } from './lib/browser.mjs';
import { suite } from './lib/suite.mjs';
import { gameIdOf, playMove, waitOnline } from './lib/play.mjs';

const env = suite();
const test = env.test;
let attempts = 0;

async function opened(path) {
    const { context, page } = await newPage(env.browser);
    env.contexts.push(context);
    await page.goto(`${env.server.url}${path}`);
    await waitOnline(page);
    return page;
}

async function registered(username) {
    const page = await opened('/');
    await page.click('[data-action="account-menu"]');
    await page.fill('form[data-form="sign-in"] input[name="username"]', username);
    await page.fill('form[data-form="sign-in"] input[name="password"]', 'correct horse battery');
    await page.click('form[data-form="sign-in"] [data-action="register"]');
    await page.waitForFunction((u) => document.body.dataset.account === u, username);
    return page;
}

const clockMs = async (page, seat) => Number(await page.getAttribute(`.clock[data-clock="${seat}"]`, 'data-ms'));

test('an arena: join, pairing, berserk, a result in the standings, back to the tournament', { timeout: 60000 }, async () => {
    const suffix = ++attempts === 1 ? '' : `_${attempts}`;
    const ann = await registered(`ann_arena${suffix}`);
    const bob = await registered(`bob_arena${suffix}`);

    // The form: a 3+0 arena of 20 minutes that starts now.
    await ann.click('.site-nav a[data-nav="tournaments"]');
    const form = 'form[data-form="tournament"]';
    await ann.fill(`${form} input[name="name"]`, `E2E Arena${suffix}`);
    await ann.fill(`${form} input[name="minutes"]`, '3');
    await ann.fill(`${form} input[name="increment"]`, '0');
    await ann.fill(`${form} input[name="duration"]`, '20');
    await ann.fill(`${form} input[name="wait"]`, '0');
    await screenshot(ann, 'tournaments-form');
    await ann.click('[data-action="create-tournament"]');
    await ann.waitForFunction(() => /^\/tournament\/t_/.test(location.pathname));
    const tid = decodeURIComponent(await ann.evaluate(() => location.pathname.split('/')[2]));
    await ann.waitForSelector('.tournament-status[data-status="started"]');
    assert.match(await ann.textContent('.tournament-head h1'), /E2E Arena/);
    assert.match(await ann.textContent('[data-countdown]'), /^Ends in (19|20):\d\d$/);

    // A guest watches: Join is there but disabled, with the hint to sign in.
    const guest = await opened(`/tournament/${encodeURIComponent(tid)}`);
    await guest.waitForSelector('[data-action="join"][disabled]');
    assert.ok(await guest.isVisible('[data-hint="sign-in"]'));

    // Bob finds it in the list (starting, or started if the arena has begun), with its clock and
    // duration.
    await bob.click('.site-nav a[data-nav="tournaments"]');
    const row = `.tournament-list tr[data-tournament="${tid}"]`;
    await bob.waitForSelector(row);
    assert.match(await bob.textContent(row), /3\+0.*20 min/);
    await screenshot(bob, 'tournaments-list');
    await bob.click(`${row} a`);
    await bob.waitForSelector('[data-action="join"]:not([disabled])');

    await ann.click('[data-action="join"]');
    await ann.waitForSelector('[data-action="withdraw"]');
    await guest.waitForSelector('.standings tr[data-player]');
    await bob.click('[data-action="join"]');

    // Paired: both pages go to the same game by themselves, with a sound.
    const gameId = await gameIdOf(ann);
    assert.equal(await gameIdOf(bob), gameId);
    for (const page of [ann, bob]) {
        await page.waitForFunction(() => window.chessence.soundLog.includes('notify'));
        await page.waitForSelector('.tournament-strip:not([hidden])');
    }
    const seatOf = (page) => page.getAttribute('.player-bar.bottom', 'data-seat');
    const [white, black] = (await seatOf(ann)) === 'white' ? [ann, bob] : [bob, ann];
    const blackId = await black.evaluate(() => window.chessence.me.id);

    // Black goes berserk: half of 3 minutes left, the mark on both pages, the button gone.
    assert.equal(await clockMs(black, 'black'), 180000);
    assert.equal(await white.locator('[data-action="berserk"]').count(), 1);
    await black.click('[data-action="berserk"]');
    for (const page of [black, white]) {
        await page.waitForSelector('[data-berserk="black"]');
        assert.equal(await clockMs(page, 'black'), 90000);
        assert.equal(await clockMs(page, 'white'), 180000);
    }
    assert.equal(await black.locator('[data-action="berserk"]').count(), 0);
    await screenshot(black, 'arena-berserk');

    // White moves (no berserk after it), pauses so that the two are not paired again, and resigns.
    await white.waitForSelector('#board[data-my-turn="true"]');
    await playMove(white, (legal) => legal[0]);
    await white.waitForSelector('#board[data-ply="1"]');
    await white.waitForFunction(() => !document.querySelector('[data-action="berserk"]'));
    await white.click('[data-action="tournament-pause"]');
    await white.waitForSelector('[data-paused]');
    await white.click('[data-action="resign"]');
    await white.click('[data-action="resign"]');
    for (const page of [white, black]) {
        await page.waitForSelector('[data-action="back-to-tournament"]');
    }

    // The guest's standings: Black won, 2 points.
    await guest.waitForFunction((id) => document.querySelector(`.standings tr[data-player="${id}"] .points`)
        ?.textContent === '2', blackId, { timeout: 15000 });
    assert.equal(await guest.textContent(`.standings tr[data-player="${blackId}"] .rank`), '1');
    assert.equal(await guest.textContent(`.standings tr[data-player="${blackId}"] .sheet`), '2');

    // Both come back to the tournament page by themselves; White is paused, Black waits.
    for (const page of [white, black]) {
        await page.waitForFunction((t) => location.pathname === `/tournament/${t}`, tid, { timeout: 15000 });
        await page.waitForSelector('.tournament-head [data-countdown]');
    }
    await white.waitForSelector('[data-action="join"]');
    assert.equal(await white.textContent('[data-action="join"]'), 'Resume');
    await black.waitForSelector('[data-action="pause"]');

    // The chat: a line typed on White's page appears on Black's and the guest's; the guest reads
    // but may not write.
    const chat = '.tournament-side .chat';
    await white.waitForSelector(`${chat}[data-chat="open"]`);
    await white.fill(`${chat} .chat-form input`, 'good game, well played');
    await white.press(`${chat} .chat-form input`, 'Enter');
    for (const page of [black, guest, white]) {
        await page.waitForSelector(`${chat} .chat-log li:has-text("good game, well played")`);
    }
    const whiteName = await white.evaluate(() => document.body.dataset.account);
    assert.equal(await black.textContent(`${chat} .chat-log li b`), whiteName);
    assert.ok(await guest.isDisabled(`${chat} .chat-form input`));
    assert.equal(await guest.getAttribute(`${chat} .chat-form input`, 'placeholder'), 'Sign in to chat');
    await screenshot(guest, 'arena-standings');
});
