// What playing feels like, against the real server: sounds (counted), a premove that goes out the
// moment the opponent's move arrives, a drag that starts before that move and ends after it, the
// title flash in a hidden tab, the result in words with its next steps, the analysis board, the
// lobby without stale rows, and an invitation that survives the inviter's reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, screenshot } from './lib/browser.mjs';
import { suite } from './lib/suite.mjs';
import { chooser, createSeek, gameIdOf, moveTexts, playMove, plyOf, setName, waitOnline } from './lib/play.mjs';
import { cutOff, smallControls } from './lib/checks.mjs';

const env = suite();

async function person(name, options = {}) {
    const { context, page } = await newPage(env.browser, options);
    env.contexts.push(context);
    await page.goto(`${env.server.url}/`);
    await waitOnline(page);
    await setName(page, name);
    return page;
}

const sounds = (page) => page.evaluate(() => [...window.chessence.soundLog]);
const click = (page, sq) => page.click(`#board [data-square="${sq}"]`);
const waitPly = (page, n) => page.waitForSelector(`#board[data-ply="${n}"][data-live="true"]`);
async function center(page, sq) {
    const b = await page.locator(`#board [data-square="${sq}"]`).boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

test('chesica: sounds, premove, a drag across the opponent\'s move, title flash, result, analysis', { timeout: 240000 }, async () => {
    const alice = await person('Ann');
    const bob = await person('Ben');
    const seekId = await createSeek(alice, { variant: 'chesica', side: 'white' });
    await bob.click(`tr[data-seek="${seekId}"] [data-accept]`);
    const gameId = await gameIdOf(alice);
    await gameIdOf(bob);
    await alice.waitForFunction(() => window.chessence.soundLog.includes('start'));
    assert.match(await alice.textContent(".key-rule"), /jumping is compulsory/);
    assert.equal(await alice.getAttribute('.key-rule a', 'href'), '/learn/chesica');

    // A move: both hear it.
    await click(alice, 'a3');
    await click(alice, 'b4');
    await Promise.all([waitPly(alice, 1), waitPly(bob, 1)]);
    await bob.waitForFunction(() => window.chessence.soundLog.includes('move'));

    // A premove while Bob thinks; a right-click cancels it, a new one replaces it.
    await click(alice, 'e3');
    await click(alice, 'f4');
    await alice.waitForSelector('#board[data-premove="e3-f4"]');
    await alice.click('#board [data-square="c3"]', { button: 'right' });
    await alice.waitForSelector('#board[data-premove=""]');
    await click(alice, 'e3');
    await click(alice, 'f4');
    await alice.waitForSelector('#board[data-premove="e3-f4"]');
    assert.match(await alice.textContent('.game-note'), /Premove e3-f4/);
    await screenshot(alice, 'game-premove');
    await click(bob, 'h6');
    await click(bob, 'g5');
    // Alice's premove goes out when Bob's move arrives, without a click.
    await Promise.all([waitPly(alice, 3), waitPly(bob, 3)]);
    assert.deepEqual(await moveTexts(bob), ['a3-b4', 'h6-g5', 'e3-f4']);

    // Bob must jump g5xe3. Alice picks up d2 before that move arrives and drops it on f4 after.
    const from = await center(alice, 'd2');
    await alice.mouse.move(from.x, from.y);
    await alice.mouse.down();
    await click(bob, 'g5');
    await click(bob, 'e3');
    await waitPly(alice, 4);
    const to = await center(alice, 'f4');
    await alice.mouse.move(to.x, to.y, { steps: 6 });
    await alice.mouse.up();
    await waitPly(bob, 5);
    assert.equal((await moveTexts(bob)).at(-1), 'd2xf4');
    const heard = await sounds(alice);
    assert.ok(heard.filter((s) => s === 'capture').length >= 2, `captures heard: ${heard}`);

    // Bob's next move reaches Alice's hidden tab: the title flashes until she looks.
    await alice.evaluate(() => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    });
    await playMove(bob, chooser(3));
    await alice.waitForFunction(() => document.title.startsWith('● '));
    await alice.evaluate(() => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
        document.dispatchEvent(new Event('visibilitychange'));
    });
    await alice.waitForFunction(() => !document.title.startsWith('● '));

    // Sounds off: nothing more is played.
    await alice.click('#settings-button');
    await alice.uncheck('#settings input[name="sound"]');
    await alice.click('[data-action="close-settings"]');
    const before = (await sounds(alice)).length;
    const ply = await plyOf(alice);
    await playMove(alice, chooser(5));
    await Promise.all([waitPly(alice, ply + 1), waitPly(bob, ply + 1)]);
    assert.equal((await sounds(alice)).length, before, 'no sound once switched off');

    // Alice resigns: the result in words, and what to do next.
    await alice.click('[data-action="resign"]');
    await alice.click('[data-action="resign"]');
    await bob.waitForSelector('.result-card[open]');
    const card = await bob.textContent('.result-card');
    assert.match(card, /You won!/);
    assert.match(card, /Ben \(Black\) beat Ann \(White\)/);
    assert.match(card, /Ann resigned/);
    assert.match(await alice.textContent('.banner'), /Ben won/);
    assert.ok((await sounds(bob)).includes('end'));
    const pgn = await bob.getAttribute('.result-card [data-dialog-action="pgn"]', 'href');
    const record = await bob.request.get(`${env.server.url}${pgn}`);
    assert.equal(record.status(), 200);
    assert.match(await record.text(), /a3-b4/);
    await screenshot(bob, 'game-result-card');

    // The lobby lists no finished game as "in progress".
    await alice.click('.site-nav a[data-nav="play"]');
    await alice.waitForSelector('form.create');
    await alice.waitForTimeout(300);
    assert.equal(await alice.locator(`[data-my-game="${gameId}"]`).count(), 0);

    // The analysis board: step through, try another move, come back to the game.
    await bob.click('.result-card [data-dialog-action="analysis"]');
    await bob.waitForFunction(() => location.pathname.startsWith('/analysis/'));
    await bob.waitForSelector('#analysis-board[data-ply][data-legal]');
    assert.ok(Number(await bob.getAttribute('#analysis-board', 'data-ply')) >= 5, 'the analysis opens at the end');
    await bob.click('[data-nav="first"]');
    await bob.waitForSelector('#analysis-board[data-ply="0"][data-line="main"]');
    await bob.click('[data-nav="next"]');
    await bob.waitForSelector('#analysis-board[data-ply="1"]');
    assert.equal(await bob.getAttribute('#analysis-board [data-square="b4"]', 'data-piece'), 'B');
    await bob.click('[data-nav="first"]');
    await bob.waitForSelector('#analysis-board[data-ply="0"]');
    await bob.click('#analysis-board [data-square="c3"]');
    await bob.click('#analysis-board [data-square="d4"]');
    await bob.waitForSelector('#analysis-board[data-ply="1"][data-line="side"]');
    assert.equal(await bob.getAttribute('#analysis-board [data-square="d4"]', 'data-piece'), 'B');
    await screenshot(bob, 'analysis-side-line');
    await bob.setViewportSize({ width: 390, height: 844 });
    assert.deepEqual(await cutOff(bob, ['#analysis-board svg.board']), [], 'the analysis board on a phone');
    assert.deepEqual(await smallControls(bob), [], 'analysis controls on a phone');
    await screenshot(bob, 'phone-analysis');
    await bob.setViewportSize({ width: 1280, height: 860 });
    await bob.click('[data-action="back-to-game"]');
    await bob.waitForSelector('#analysis-board[data-line="main"][data-ply="0"]');
    assert.deepEqual(alice.errors, []);
    assert.deepEqual(bob.errors, []);
});

test('an invitation survives the inviter\'s reload; its page says who, what, which colour, rules, clock', { timeout: 120000 }, async () => {
    const alice = await person('Alice');
    const bob = await person('Bruno');
    const seekId = await createSeek(alice, { variant: 'chesica', side: 'black', isPrivate: true, clock: { minutes: 5, increment: 3 } });
    const link = await alice.inputValue(`[data-my-seek="${seekId}"] input.invite`);
    assert.ok(link.endsWith(`/join/${seekId}`), link);
    await alice.reload();
    await waitOnline(alice);
    await alice.waitForSelector(`[data-my-seek="${seekId}"]`);
    assert.match(await alice.textContent(`[data-my-seek="${seekId}"]`), /valid until/);
    await bob.goto(link);
    await bob.waitForSelector('[data-inviter]');
    assert.equal(await bob.textContent('[data-inviter]'), 'Alice');
    assert.match(await bob.textContent('.invite-lead'), /Chesica/);
    assert.match(await bob.textContent('[data-fact="colour"]'), /You play White; Alice plays Black/);
    assert.match(await bob.textContent('[data-fact="rules"]'), /House rules/);
    assert.equal(await bob.textContent('[data-fact="clock"]'), '5+3: 5 minutes each, plus 3 seconds per move.');
    assert.ok(await bob.locator('[data-fact="expires"]').count());
    await screenshot(bob, 'invitation');
    await bob.click('[data-action="join"]');
    const gameId = await gameIdOf(bob);
    assert.equal(await gameIdOf(alice), gameId, 'the reloaded inviter is taken to the game');
    assert.equal(await alice.getAttribute('.player-bar.bottom', 'data-seat'), 'black');
    // An invitation that is gone says so.
    await bob.goto(link);
    await bob.waitForSelector('.join .gone');
    assert.deepEqual(alice.errors, []);
});
