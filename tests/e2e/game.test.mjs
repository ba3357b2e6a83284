// End to end against the real server: two players find each other in the lobby (or by a private
// invitation link), play a whole game of each variant by clicking squares, while a third browser
// watches every move; a player drops off the network mid-game and catches up without a reload.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, screenshot } from './lib/browser.mjs';
import { startServer } from './lib/server.mjs';
import { startFakeServer } from './lib/fake_server.mjs';
import { chooser, createSeek, gameIdOf, isOver, moveTexts, playMove, plyOf, setName, waitOnline,
         whoseTurn } from './lib/play.mjs';

let server;
let browser;
const contexts = [];

before(async () => {
    server = process.env.CHESSENCE_FAKE_SERVER ? await startFakeServer() : await startServer();
    browser = await launch();
});
after(async () => {
    for (const c of contexts) {
        await c.close().catch(() => {});
    }
    await browser?.close();
    await server?.stop();
});

async function person(name, options = {}) {
    const { context, page } = await newPage(browser, options);
    contexts.push(context);
    await server.attach?.(context);
    await page.goto(`${server.url}/#/`);
    await waitOnline(page);
    if (name) {
        await setName(page, name);
    }
    return { context, page };
}

// Waits until every page shows ply `ply` — or a later Sniderman round than `round`, or a result.
async function samePly(pages, ply, round = '') {
    await Promise.all(pages.map((p) => p.waitForFunction(([n, r]) => {
        const board = document.querySelector('#board');
        return Number(board?.dataset.ply) >= n || (r !== '' && board?.dataset.round !== r)
            || !document.querySelector('.banner')?.hidden;
    }, [ply, round], { timeout: 15000 })));
}

// Sniderman: the namer names the first open object; the chooser takes ODD. A button seen may be
// drawn again (or go, when the other page acted) before the click lands: the caller's loop then
// looks again, and the panel's text is logged so that a panel that never offers the choice shows.
async function matchDecisions(players) {
    for (const p of players) {
        for (const selector of ['.match button.object-choice', '.match button[data-side="odd"]']) {
            const button = p.locator(selector).first();
            if (!(await button.isVisible().catch(() => false))) {
                continue;
            }
            try {
                await button.click({ timeout: 3000 });
                return true;
            } catch (err) {
                const panel = await p.locator('.match').textContent().catch(() => '?');
                console.log(`match decision missed (${selector}): ${err.message.split('\n')[0]}; panel: ${panel}`);
                return false;
            }
        }
    }
    return false;
}

// Plays until the result banner shows; `midGame(ply, mover)` runs before each move and returns
// the move if it played the turn itself.
async function playToEnd({ players, watcher, choose, maxPlies, midGame = async () => {} }) {
    const all = [...players, watcher];
    const played = [];
    const deadline = Date.now() + 600000;
    while (!(await isOver(players[0]))) {
        assert.ok(Date.now() < deadline, 'game finished in time');
        const mover = await whoseTurn(players);
        if (!mover) {
            if (!(await matchDecisions(players))) {
                await players[0].waitForTimeout(50);
            }
            continue;
        }
        const ply = await plyOf(mover);
        const extra = await midGame(ply, mover);
        if (extra) {
            played.push(extra); // midGame played this turn itself
            continue;
        }
        if (played.length >= maxPlies) {
            await mover.click('[data-action="resign"]');
            await mover.click('[data-action="resign"]');
            break;
        }
        const round = await mover.getAttribute('#board', 'data-round');
        played.push(await playMove(mover, choose));
        await samePly(all, ply + 1, round);
    }
    for (const p of all) {
        await p.waitForSelector('.banner:not([hidden])');
    }
    return played;
}

// No uncaught exception or console error (failed connections while offline are expected).
function noScriptErrors(pages) {
    for (const p of pages) {
        assert.deepEqual(p.errors.filter((e) => !/WebSocket|ERR_INTERNET_DISCONNECTED/.test(e)), []);
    }
}

async function watchFromLobby(watcher, gameId) {
    await watcher.click(`[data-game="${gameId}"] a`);
    await watcher.waitForSelector('#board[data-version]');
}

test('chessence: lobby seek, full game, spectator, reconnect without reload', { timeout: 700000 }, async () => {
    const alice = (await person('Alice')).page;
    const bobPerson = await person('Bob');
    const bob = bobPerson.page;
    const carol = (await person('Carol')).page;
    const seekId = await createSeek(alice, { variant: 'chessence', side: 'white' });
    await bob.waitForSelector(`tr[data-seek="${seekId}"]`);
    await screenshot(bob, 'lobby-open-seek');
    await screenshot(alice, 'lobby-own-seek');
    await bob.click(`tr[data-seek="${seekId}"] [data-accept]`);
    const gameId = await gameIdOf(alice);
    assert.equal(await gameIdOf(bob), gameId);
    await watchFromLobby(carol, gameId);
    await alice.waitForFunction(() => Number(document.querySelector('.spectators')?.dataset.count) >= 1);
    assert.equal(await alice.getAttribute('.player-bar.bottom', 'data-seat'), 'white');
    assert.equal(await bob.getAttribute('.player-bar.bottom', 'data-seat'), 'black', 'Black sees the board flipped');
    await alice.fill('.chat-form input', 'Good luck!');
    await alice.press('.chat-form input', 'Enter');
    await bob.waitForSelector('.chat-log li:has-text("Good luck!")');
    // Two channels: the spectators talk among themselves, and the players may close their chat.
    await carol.fill('.chat-form input', 'Nice opening');
    await carol.press('.chat-form input', 'Enter');
    await carol.waitForSelector('.chat-log li:has-text("Nice opening")');
    assert.equal(await carol.locator('.chat-log li:has-text("Good luck!")').count(), 0, 'the players\' chat is theirs');
    await bob.click('.chat-switch');
    await carol.waitForSelector('.chat-form input:disabled');
    await bob.click('.chat-switch');
    await carol.waitForSelector('.chat-form input:enabled');
    assert.equal(await alice.locator('.chat-log li:has-text("Nice opening")').count(), 0, 'nor do players read the spectators\'');

    let reconnected = false;
    const played = await playToEnd({
        players: [alice, bob], watcher: carol, choose: chooser(7), maxPlies: 300,
        midGame: async (ply, mover) => {
            if (ply === 6) {
                await screenshot(alice, 'chessence-midgame');
                const phone = await person(null, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
                await phone.page.waitForTimeout(100);
                await phone.page.goto(`${server.url}/#/game/${gameId}`);
                await phone.page.waitForSelector('#board[data-ply="6"]');
                await screenshot(phone.page, 'phone-chessence-game');
                await phone.context.close();
            }
            if (!reconnected && ply >= 8 && mover === alice) {
                reconnected = true;
                await bob.evaluate(() => { window.noReloadMarker = 42; });
                await bobPerson.context.setOffline(true);
                await bob.waitForSelector('#conn:not([data-state="online"])');
                const seen = await plyOf(bob);
                const move = await playMove(alice, chooser(ply));
                await samePly([alice, carol], ply + 1);
                assert.equal(await plyOf(bob), seen, 'offline: the move has not reached Bob yet');
                await screenshot(bob, 'chessence-offline');
                await bobPerson.context.setOffline(false);
                await bob.waitForSelector('#conn[data-state="online"]', { timeout: 20000 });
                await samePly([bob], ply + 1);
                assert.equal(await bob.evaluate(() => window.noReloadMarker), 42, 'no reload');
                return move;
            }
            return null;
        },
    });
    assert.ok(reconnected, 'the reconnect was exercised');
    await screenshot(alice, 'chessence-final');
    await screenshot(carol, 'chessence-final-spectator');
    const seen = await moveTexts(carol);
    assert.ok(seen.length >= played.length, 'the spectator saw every move');
    assert.deepEqual(await moveTexts(alice), seen);
    assert.deepEqual(await moveTexts(bob), seen);
    console.log(`chessence: ${seen.length} plies, ${await alice.textContent('.banner')}`);
    noScriptErrors([alice, bob, carol]);
});

test('chesica: quick pairing, draw offer declined, full game watched, rematch', { timeout: 700000 }, async () => {
    const alice = (await person('Ann')).page;
    const bob = (await person('Ben')).page;
    const carol = (await person('Cat')).page;
    await createSeek(alice, { variant: 'chesica', side: 'random' });
    await bob.check('form.create input[name="variant"][value="chesica"]', { force: true });
    await bob.click('form.create [data-action="quick"]');
    const gameId = await gameIdOf(alice);
    await gameIdOf(bob);
    await watchFromLobby(carol, gameId);
    await alice.click('[data-action="draw-offer"]');
    await bob.click('[data-action="draw-decline"]');
    await alice.waitForSelector('[data-action="draw-offer"]:not([disabled])');
    const played = await playToEnd({
        players: [alice, bob], watcher: carol, choose: chooser(11), maxPlies: 300,
        midGame: async (ply) => {
            if (ply === 10) {
                await screenshot(carol, 'chesica-midgame');
                await carol.click('.move-list .mv[data-ply="3"]');
                await carol.waitForSelector('#board[data-live="false"][data-ply="3"]');
                await carol.click('[data-nav="live"]');
            }
        },
    });
    await screenshot(alice, 'chesica-final');
    const seen = await moveTexts(carol);
    assert.ok(seen.length >= played.length);
    assert.deepEqual(await moveTexts(alice), seen);
    console.log(`chesica: ${seen.length} plies, ${await alice.textContent('.banner')}`);
    await alice.click('[data-action="rematch-offer"]');
    await bob.click('[data-action="rematch-accept"]');
    await Promise.all([alice, bob].map((p) => p.waitForFunction((old) => location.pathname.startsWith('/game/')
        && !location.pathname.endsWith(old), encodeURIComponent(gameId))));
    assert.equal(await gameIdOf(alice), await gameIdOf(bob));
    await carol.waitForSelector('[data-action="rematch-go"]');
    noScriptErrors([alice, bob, carol]);
});

test('sniderman: private invitation, a one-round match played to its end', { timeout: 300000 }, async () => {
    const alice = (await person('Odette')).page;
    const bob = (await person('Evan')).page;
    const carol = (await person('Vic')).page;
    await createSeek(alice, { variant: 'sniderman', rounds: 1, isPrivate: true });
    const link = await alice.inputValue('[data-my-seek] input.invite');
    await bob.goto(link);
    await bob.click('[data-action="join"]');
    const gameId = await gameIdOf(alice);
    await gameIdOf(bob);
    // A private game: a stranger with only its id is turned away; its link (with the key) works.
    const dave = (await person('Stranger')).page;
    await dave.goto(`${server.url}/game/${gameId}`);
    await dave.waitForSelector('text=This game is private');
    const spectatorLink = await alice.getAttribute('[data-action="copy-game"]', 'data-link');
    assert.match(spectatorLink, /\/game\/g_[0-9a-f]+\?key=[0-9a-f]{32}$/);
    await carol.goto(spectatorLink);
    await carol.waitForSelector('#board[data-version]');
    await screenshot(alice, 'sniderman-deal');
    const played = await playToEnd({ players: [alice, bob], watcher: carol, choose: chooser(5), maxPlies: 15 });
    assert.ok(played.length >= 1 && played.length <= 15);
    assert.ok(played.every((m) => m.includes('x')), 'every Sniderman move is a capture');
    await screenshot(alice, 'sniderman-final');
    await screenshot(carol, 'sniderman-final-spectator');
    assert.deepEqual(await moveTexts(carol), played);
    console.log(`sniderman: ${played.length} plies, ${await alice.textContent('.banner')}`);
    noScriptErrors([alice, bob, carol, dave]);
});

test('sniderman: a three-round match from the lobby, objects not reused, the score kept', { timeout: 300000 }, async () => {
    const alice = (await person('Oona')).page;
    const bob = (await person('Eddie')).page;
    const carol = (await person('Wes')).page;
    const seekId = await createSeek(alice, { variant: 'sniderman', rounds: 3 });
    await bob.click(`tr[data-seek="${seekId}"] [data-accept]`);
    const gameId = await gameIdOf(alice);
    await gameIdOf(bob);
    await watchFromLobby(carol, gameId);
    await playToEnd({ players: [alice, bob], watcher: carol, choose: chooser(3), maxPlies: 45 });
    await screenshot(carol, 'sniderman-match-final');
    const rounds = await carol.locator('.match .rounds li').count();
    assert.ok(rounds >= 2 && rounds <= 3, `two or three rounds played (${rounds})`);
    const score = (await carol.getAttribute('.match .score', 'data-score')).split('-').map(Number);
    assert.equal(Math.max(...score), 2, 'the winner won two rounds');
    assert.equal(score[0] + score[1], rounds);
    const objects = await carol.locator('.match .rounds li').evaluateAll((lis) => lis.map((li) => li.dataset.object));
    assert.ok(objects.every(Boolean), 'each round shows its object');
    assert.equal(new Set(objects).size, objects.length, 'no object is used twice');
    assert.match(await carol.textContent('.banner'), /wins/);
    noScriptErrors([alice, bob, carol]);
});

test('phone: the lobby on a narrow screen', async () => {
    const phone = await person('Phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await screenshot(phone.page, 'phone-lobby');
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no horizontal scrolling (${width}px)`);
});
