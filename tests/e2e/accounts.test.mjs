// Accounts and ratings in Chromium against the real server (issue 16): two guests register, play a
// rated game to a result, both see the rating change at the end, and the player page shows the
// new rating (provisional "?"), the win/draw/loss tally, an SVG rating-history chart and the game
// in the finished-games list with its replay link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, screenshot } from './lib/browser.mjs';
import { suite } from './lib/suite.mjs';
import { createSeek, gameIdOf, waitOnline } from './lib/play.mjs';

const env = suite();

async function registered(username) {
    const { context, page } = await newPage(env.browser);
    env.contexts.push(context);
    await page.goto(`${env.server.url}/`);
    await waitOnline(page);
    await page.click('[data-action="account-menu"]');
    await page.fill('form[data-form="sign-in"] input[name="username"]', username);
    await page.fill('form[data-form="sign-in"] input[name="password"]', 'correct horse battery');
    await page.click('form[data-form="sign-in"] [data-action="register"]');
    await page.waitForFunction((u) => document.body.dataset.account === u, username);
    return page;
}

test('register, play a rated game, see the rating change and the chart', async () => {
    const ann = await registered('ann_e2e');
    const bob = await registered('bob_e2e');
    const annId = await ann.evaluate(() => window.chessence.me.id);
    assert.match(annId, /^p_/);

    await ann.check('form.create input[name="rated"]');
    const seekId = await createSeek(ann, { variant: 'chessence', side: 'white' });
    await bob.waitForSelector(`tr[data-seek="${seekId}"]`);
    assert.match(await bob.textContent(`tr[data-seek="${seekId}"]`), /rated/);
    await bob.click(`tr[data-seek="${seekId}"] [data-accept]`);
    const gameId = await gameIdOf(ann);
    assert.equal(await gameIdOf(bob), gameId);

    await ann.click('[data-action="resign"]');
    await ann.click('[data-action="resign"]');
    for (const page of [ann, bob]) {
        await page.waitForSelector('.rating-change:not([hidden]) .rating-delta');
    }
    // Both start at 1500 / RD 350: the loser drops to 1338, the winner rises to 1662 (Glicko-2).
    assert.equal(await ann.textContent(`.rating-change li[data-player="${annId}"] .rating-after`), '1338?');
    assert.equal(await ann.textContent(`.rating-change li:not([data-player="${annId}"]) .rating-after`), '1662?');
    assert.equal(await bob.textContent(`.rating-change li[data-player="${annId}"] .rating-delta`), '−162');
    await screenshot(ann, 'rated-game-over');

    await ann.goto(`${env.server.url}/player/${annId}`);
    await ann.waitForSelector('.ratings tr[data-variant="chessence"] .rating');
    assert.equal(await ann.textContent('.ratings tr[data-variant="chessence"] .rating'), '1338?');
    assert.match(await ann.textContent('.tally'), /^1 game · 0 won · 0 drawn · 1 lost$/);
    await ann.waitForSelector('figure.chart[data-variant="chessence"] svg.rating-chart');
    assert.equal(await ann.locator('svg.rating-chart circle.point').count(), 1);
    // One game draws a line from the rating before it (a hollow mark at 1500), not a lone dot.
    assert.equal(await ann.locator('svg.rating-chart circle.start').count(), 1);
    assert.equal((await ann.getAttribute('svg.rating-chart polyline.line', 'points')).trim().split(/\s+/).length, 2);
    await ann.waitForSelector(`[data-list="player-games"] tr[data-game="${gameId}"]`);
    assert.equal(await ann.getAttribute(`tr[data-game="${gameId}"]`, 'data-result'), 'loss');
    await screenshot(ann, 'player-page');

    // Filters: no won games; then the replay page of the game.
    await ann.selectOption('.filters select[name="result"]', 'win');
    await ann.waitForSelector('.player-games .empty');
    await ann.selectOption('.filters select[name="result"]', '');
    await ann.click(`tr[data-game="${gameId}"] a[href^="/game/"]`);
    await ann.waitForSelector('#board[data-version]');
    await ann.waitForSelector('.rating-change:not([hidden])');
    assert.ok(await ann.isVisible('[data-action="pgn"]'), 'a finished game offers its PGN');
});
