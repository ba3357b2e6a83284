// Issue 25, item 2: "Play the computer" in the browser. From the landing page a game against the
// computer at level 1 is played to its result; the computer's bar, the lobby's list and the chat
// show that it is the computer; "Play the computer again" starts the next one; the form remembers
// its choices; a rules page opens it with its game; a busy computer says so; it fits a phone.
// One real server for the file (the scripted-socket test only borrows its web files).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, screenshot } from './lib/browser.mjs';
import { suite } from './lib/suite.mjs';
import { cutOff, smallControls } from './lib/checks.mjs';
import { mockSocket } from './lib/mock_server.mjs';
import { chooser, clickIfShown, gameIdOf, isOver, playMove, waitOnline } from './lib/play.mjs';

const env = suite();
const WIDE = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const DIALOG = 'dialog[data-dialog="computer"]';

async function visitor(options = WIDE, path = '/') {
    const { context, page } = await newPage(env.browser, options);
    env.contexts.push(context);
    await page.goto(`${env.server.url}${path}`);
    await waitOnline(page);
    return page;
}

// What the open form shows.
const formState = (page) => page.evaluate((sel) => {
    const d = document.querySelector(sel);
    const f = d.querySelector('form').elements;
    return { open: d.open, variant: f.variant.value, level: f.level.value, side: f.side.value,
             rounds: f.rounds.value, sideShown: !d.querySelector('fieldset.side').hidden,
             roundsShown: !d.querySelector('label.rounds').hidden,
             clock: d.querySelector('.clock-presets input:checked').closest('label').textContent };
}, DIALOG);

// Plays the user's side until the result: moves chosen from the board's legal moves, Sniderman's
// object and ODD/EVEN when it is the user's to choose.
async function playToResult(page, choose, maxActions = 200) {
    for (let n = 0; !(await isOver(page)); n++) {
        assert.ok(n < maxActions, 'the game against the computer ends');
        if ((await page.getAttribute('#board', 'data-my-turn')) === 'true') {
            const ply = Number(await page.getAttribute('#board', 'data-ply'));
            await playMove(page, choose);
            await page.waitForFunction((p) => Number(document.querySelector('#board').dataset.ply) > p
                || !document.querySelector('.banner').hidden || document.querySelector('#board').dataset.myTurn !== 'true', ply);
            continue;
        }
        if (await clickIfShown(page.locator('.match button.object-choice').first())
            || await clickIfShown(page.locator('.match button[data-side="odd"]'))) {
            continue;
        }
        await page.waitForTimeout(100);
    }
}

test('from the landing page: a one-round Sniderman match against the computer at level 1, played to its result',
     { timeout: 120000 }, async () => {
    const page = await visitor();
    const slot = page.locator('[data-intro="sniderman"] [data-slot="play-computer"]');
    assert.ok(await slot.isVisible(), 'the landing page offers the computer for each game');
    await slot.locator('button[data-computer="sniderman"]').click();
    let form = await formState(page);
    assert.equal(form.open, true);
    assert.equal(form.variant, 'sniderman', 'the landing button preselects its game');
    assert.equal(form.sideShown, false, 'Sniderman ignores colours: no colour choice');
    assert.equal(form.roundsShown, true);
    assert.equal(form.clock, 'Unlimited');
    assert.match(await page.textContent(`${DIALOG} .levels`), /1\s*Beginner[\s\S]*8\s*Full strength/);
    await page.check(`${DIALOG} input[name="level"][value="1"]`, { force: true });
    await page.selectOption(`${DIALOG} select[name="rounds"]`, '1');
    await screenshot(page, 'computer-form-wide');
    await page.click(`${DIALOG} [data-action="start-computer"]`);
    const gameId = await gameIdOf(page);
    assert.equal(await page.locator(DIALOG).evaluate((d) => d.open), false, 'the form closes once the game starts');

    // The computer's bar: its name and level with the computer's mark, no online dot, no lag.
    const botBar = page.locator('.player-bar.bot');
    await botBar.waitFor();
    assert.equal((await botBar.locator('.name').textContent()).trim(), 'Computer level 1');
    assert.equal(await botBar.locator('.bot-mark').count(), 1);
    assert.equal(await botBar.locator('.online, .lag').count(), 0);
    assert.equal(await page.locator('.player-bar:not(.bot) .online').count(), 1, 'the person keeps the online dot');
    assert.equal(await page.locator('section.chat').isVisible(), false, 'no chat box against the computer');

    // The lobby lists it as a game against the computer; a spectator keeps the spectators' chat.
    const lobby = await visitor();
    const row = lobby.locator(`[data-list="games"] [data-game="${gameId}"]`);
    await row.waitFor();
    assert.equal(await row.getAttribute('data-bot-level'), '1');
    assert.match(await row.textContent(), /vs Computer level 1/);
    await row.locator('a').click();
    await lobby.waitForSelector('#board[data-version]');
    assert.ok(await lobby.locator('section.chat').isVisible(), 'spectators still have their chat');
    assert.equal((await lobby.locator('.player-bar.bot .name').textContent()).trim(), 'Computer level 1');

    await screenshot(page, 'computer-game-wide');
    await playToResult(page, chooser(3));
    assert.match(await page.textContent('.banner'), /match/i, 'a real result: the match is decided');
    await lobby.waitForSelector('.banner:not([hidden])');
    await screenshot(page, 'computer-game-over-wide');

    // After the game: "New opponent" is "Play the computer again", with the same settings.
    const again = page.locator('.after-game [data-action="new-opponent"], [data-dialog-action="new-opponent"]').first();
    assert.equal((await again.textContent()).trim(), 'Play the computer again');
    await again.click();
    await page.waitForFunction((id) => location.pathname.startsWith('/game/') && !location.pathname.endsWith(id), gameId);
    await page.waitForSelector('.player-bar.bot');
    assert.equal((await page.locator('.player-bar.bot .name').textContent()).trim(), 'Computer level 1');
    assert.equal(await page.getAttribute('body', 'data-variant'), 'sniderman');
    assert.deepEqual(page.errors, []);
    assert.deepEqual(lobby.errors, []);
});

test('the form remembers its last choices; the lobby\'s own button opens it; a rematch with the computer', { timeout: 60000 }, async () => {
    const page = await visitor();
    await page.click('form.create [data-action="computer"]');
    await page.check(`${DIALOG} input[name="variant"][value="chesica"]`, { force: true });
    assert.equal((await formState(page)).sideShown, true, 'Chesica has colours');
    await page.check(`${DIALOG} input[name="level"][value="5"]`, { force: true });
    await page.check(`${DIALOG} input[name="side"][value="black"]`, { force: true });
    await page.locator(`${DIALOG} .clock-presets label`, { hasText: '10+5' }).click();
    await page.click(`${DIALOG} [data-action="start-computer"]`);
    await gameIdOf(page);
    // Playing Black: the computer (White) moves first, at once.
    await page.waitForSelector('#board[data-my-turn="true"]', { timeout: 15000 });
    assert.equal(await page.getAttribute('.player-bar.bot', 'data-seat'), 'white');
    // Rematch as with a person: the computer accepts at once, colours swapped.
    await page.click('[data-action="resign"]');
    await page.click('[data-action="resign"]');
    await page.waitForSelector('.banner:not([hidden])');
    const first = decodeURIComponent(await page.evaluate(() => location.pathname.split('/')[2]));
    await page.click('.after-game [data-action="rematch-offer"]');
    await page.waitForFunction((id) => location.pathname.startsWith('/game/') && !location.pathname.endsWith(id), first);
    await page.waitForFunction(() => document.querySelector('.player-bar.bot')?.dataset.seat === 'black');
    assert.equal((await page.locator('.player-bar.bot .name').textContent()).trim(), 'Computer level 5');
    await page.goto(`${env.server.url}/`);
    await waitOnline(page);
    await page.click('form.create [data-action="computer"]');
    const form = await formState(page);
    assert.deepEqual({ variant: form.variant, level: form.level, side: form.side, clock: form.clock },
                     { variant: 'chesica', level: '5', side: 'black', clock: '10+5' });
    assert.deepEqual(page.errors, []);
});

test('a rules page opens the form with its game; at 390 px nothing is cut off', { timeout: 60000 }, async () => {
    const page = await visitor(PHONE, '/learn/chessence');
    await page.click('[data-action="play-computer"]');
    const form = await formState(page);
    assert.equal(form.open, true);
    assert.equal(form.variant, 'chessence');
    assert.deepEqual(await cutOff(page), []);
    const dialogWidth = await page.locator(DIALOG).evaluate((d) => [d.scrollWidth, d.clientWidth, d.getBoundingClientRect().right]);
    assert.ok(dialogWidth[0] <= dialogWidth[1] && dialogWidth[2] <= 390, `the form fits 390 px: ${dialogWidth}`);
    assert.deepEqual(await smallControls(page), []);
    await screenshot(page, 'computer-form-phone');
    // Start it: the game against the computer on a phone.
    await page.click(`${DIALOG} [data-action="start-computer"]`);
    await gameIdOf(page);
    await page.waitForSelector('.player-bar.bot');
    assert.deepEqual(await cutOff(page), []);
    await screenshot(page, 'computer-game-phone');
    assert.deepEqual(page.errors, []);
});

test('a busy computer: the form says so and stays open (scripted socket)', { timeout: 30000 }, async () => {
    const { context, page } = await newPage(env.browser, WIDE);
    env.contexts.push(context);
    const mock = await mockSocket(page);
    await page.goto(`${env.server.url}/`);
    await page.waitForSelector('#conn[data-state="online"]');
    await page.click('[data-computer="chesica"]');
    await page.check(`${DIALOG} input[name="level"][value="8"]`, { force: true });
    await page.click(`${DIALOG} [data-action="start-computer"]`);
    const sent = await mock.next((m) => m.type === 'seek_create');
    assert.equal(sent.opponent, 'computer');
    assert.equal(sent.level, 8);
    assert.equal(sent.variant, 'chesica');
    assert.equal(sent.rated, undefined);
    assert.equal(sent.private, undefined);
    assert.equal(await page.getAttribute(`${DIALOG} [data-action="start-computer"]`, 'disabled'), '');
    mock.push({ type: 'error', code: 'bots_busy', message: 'no computer player is free', id: sent.id });
    await page.waitForFunction((sel) => document.querySelector(sel).textContent.includes('busy'), `${DIALOG} [data-computer-message]`);
    assert.equal(await page.textContent(`${DIALOG} [data-computer-message]`), 'The computer is busy, try again in a moment.');
    assert.equal(await page.locator(DIALOG).evaluate((d) => d.open), true);
    assert.equal(await page.getAttribute(`${DIALOG} [data-action="start-computer"]`, 'disabled'), null, 'it may be tried again');
    assert.deepEqual(page.errors, []);
});
