// End to end in Chromium against the real server: a 15-second game (a custom clock) found in the
// lobby, watched by a spectator; both players move, then White stops and its clock runs out. The
// server ends the game; both players and the spectator see the same result and the same clocks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, screenshot } from './lib/browser.mjs';
import { suite } from './lib/suite.mjs';
import { chooser, createSeek, gameIdOf, playMove, plyOf, setName, waitOnline } from './lib/play.mjs';

const env = suite();

async function person(name) {
    const { context, page } = await newPage(env.browser);
    env.contexts.push(context);
    await page.goto(`${env.server.url}/#/`);
    await waitOnline(page);
    await setName(page, name);
    return page;
}

const clockOf = (page, seat) => page.locator(`.player-bar[data-seat="${seat}"] .clock`);
const msOf = async (page, seat) => Number(await clockOf(page, seat).getAttribute('data-ms'));

test('a short clock played until White flags: players and spectator see the same end', { timeout: 120000 }, async () => {
    const alice = await person('Alice');
    const bob = await person('Bob');
    const carol = await person('Carol');
    const seekId = await createSeek(alice, { variant: 'chesica', side: 'white', clock: { minutes: 0.25, increment: 0 } });
    await bob.waitForSelector(`tr[data-seek="${seekId}"]`);
    assert.equal(await bob.textContent(`tr[data-seek="${seekId}"] td[data-clock]`), '¼+0');
    await screenshot(bob, 'clock-lobby');
    await bob.click(`tr[data-seek="${seekId}"] [data-accept]`);
    const gameId = await gameIdOf(alice);
    await gameIdOf(bob);
    await carol.goto(`${env.server.url}/#/game/${gameId}`);
    await carol.waitForSelector('#board[data-version]');

    // Before both have moved: the clocks stand at 15 s, the first move is due, abort is offered.
    for (const page of [alice, bob, carol]) {
        assert.equal(await clockOf(page, 'white').textContent(), '0:15');
        assert.equal(await clockOf(page, 'black').textContent(), '0:15');
    }
    await alice.waitForSelector('.time-actions [data-action="abort"]');
    assert.match(await alice.textContent('.time-actions .countdown'), /You have \d+ s to make the first move/);
    assert.equal(await carol.locator('.time-actions [data-action]').count(), 0, 'a spectator has no controls');

    const choose = chooser(3);
    for (let ply = 0; ply < 4; ply++) {
        const mover = ply % 2 === 0 ? alice : bob;
        await mover.waitForSelector('#board[data-my-turn="true"]');
        await playMove(mover, choose);
        await Promise.all([alice, bob, carol].map((p) => p.waitForFunction((n) =>
            Number(document.querySelector('#board')?.dataset.ply) >= n, ply + 1)));
        if (ply === 1) {
            await alice.waitForSelector('.time-actions [data-action="abort"]', { state: 'detached' });
            await alice.waitForSelector('.player-bar[data-seat="white"] .clock.running');
        }
    }
    assert.equal(await plyOf(carol), 4);
    // White's clock runs and ticks down on every page; Black's stands.
    const before = await msOf(carol, 'white');
    await carol.waitForFunction((start) => Number(document.querySelector(
        '.player-bar[data-seat="white"] .clock')?.dataset.ms) < start - 500, before);
    await alice.waitForSelector('.player-bar[data-seat="white"] .clock.low');
    await screenshot(alice, 'clock-low-time');

    for (const page of [alice, bob, carol]) {
        await page.waitForSelector('.banner:not([hidden])', { timeout: 30000 });
    }
    // The headline speaks to the viewer ("You won!", "Bob won", "Bob wins"); the result is the same.
    for (const page of [alice, bob, carol]) {
        assert.equal(await page.getAttribute('.banner', 'data-result'), 'black');
        const banner = await page.textContent('.banner');
        assert.match(banner, /Bob \(Black\) beat Alice \(White\)/);
        assert.match(banner, /Alice ran out of time/);
    }
    for (const page of [alice, bob, carol]) {
        assert.equal(await clockOf(page, 'white').textContent(), '0:00.0');
        assert.equal(await msOf(page, 'black'), await msOf(alice, 'black'));
        assert.equal(await page.locator('#board').getAttribute('data-legal'), '');
    }
    await screenshot(carol, 'clock-flag-spectator');
    const api = await (await fetch(`${env.server.url}/api/games/${gameId}`)).json();
    assert.deepEqual(api.result, { winner: 'black', reason: 'timeout' });
    assert.deepEqual(api.clock, { initial: 15, increment: 0 });
    const pgn = await (await fetch(`${env.server.url}/api/games/${gameId}.pgn`)).text();
    assert.match(pgn, /\[TimeControl "15\+0"\]/);
    assert.match(pgn, /\{\[%clk 0:00:\d\d\.\d\]\}/);
    for (const page of [alice, bob, carol]) {
        assert.deepEqual(page.errors, []);
    }
});
