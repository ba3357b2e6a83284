// Issue 47, item 5: the defects a new user met, each checked in Chromium against one real server
// (and, where timing must be exact, a scripted socket on the same page): an offer seen and heard on
// a phone, a drag onto the piece that just arrived, what a rated game shows, the analysis board's
// sentences and the pages that do not exist, the Chessence rank labels beside a hole, the phone's
// header, computer dialog and lobby, the +15 s notice, the computer's reply after the player's own
// slide, Sniderman's object list and move strip, and the bottom bar after a game.
import assert from 'node:assert/strict';
import { newPage } from './lib/browser.mjs';
import { suite } from './lib/suite.mjs';
import { mockSocket } from './lib/mock_server.mjs';
import { socketGame } from './lib/socket_game.mjs';
import { createSeek, gameIdOf, playMove, setName, waitOnline } from './lib/play.mjs';
import { boardFromFen } from '../../web-client/protocol.js';

const env = suite();
const test = env.test;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const DESKTOP = { viewport: { width: 1366, height: 768 } };
let names = 0;

async function person(options = DESKTOP, name = null) {
    const { context, page } = await newPage(env.browser, options);
    env.contexts.push(context);
    await page.goto(`${env.server.url}/`);
    await waitOnline(page);
    if (name) {
        await setName(page, name);
    }
    return page;
}

// Two players in a game from the lobby: `a` created the seek (White), `b` accepted it.
async function newGame(variant, { a = DESKTOP, b = DESKTOP, clock = null } = {}) {
    const pa = await person(a, `Ann${++names}`);
    const pb = await person(b, `Bob${names}`);
    const seekId = await createSeek(pa, { variant, side: 'white', clock });
    await pb.click(`tr[data-seek="${seekId}"] [data-accept]`);
    const gameId = await gameIdOf(pa);
    await gameIdOf(pb);
    return { a: pa, b: pb, gameId };
}

const click = (page, sq) => page.click(`#board [data-square="${sq}"]`);
const waitPly = (page, n) => page.waitForSelector(`#board[data-ply="${n}"][data-live="true"]`);

// Whether the element is shown and wholly inside the window as it is now (nothing scrolled).
const inWindow = (page, selector) => page.evaluate((sel) => [...document.querySelectorAll(sel)].some((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'
        && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
}), selector);

test('a: on a phone, a takeback request and a draw offer are seen (Accept in the window) and heard', async () => {
    const { a, b } = await newGame('chessence', { a: PHONE });
    await playMove(a, (legal) => legal.find((m) => !m.startsWith('@')));
    await waitPly(b, 1);
    await playMove(b, (legal) => legal.find((m) => !m.startsWith('@')));
    await waitPly(a, 2);
    const heard = () => a.evaluate(() => window.chessence.soundLog.filter((s) => s === 'notify').length);
    await a.evaluate(() => window.scrollTo(0, 0));
    await b.click('[data-action="takeback-offer"]');
    await a.waitForSelector('[data-action="takeback-accept"]');
    await a.waitForTimeout(100); // the banner follows the page's own answers in and out of view
    assert.ok(await inWindow(a, '[data-action="takeback-accept"], .offer-prompt [data-prompt-action="accept"]'),
              'an Accept of the takeback request is in view without scrolling');
    assert.equal(await heard(), 1, 'the request is heard');
    await a.click('[data-action="takeback-decline"]');
    await a.waitForSelector('[data-action="takeback-accept"]', { state: 'detached' });
    await b.click('[data-action="draw-offer"]');
    await a.waitForSelector('[data-action="draw-accept"]');
    await a.waitForTimeout(100);
    assert.ok(await inWindow(a, '[data-action="draw-accept"], .offer-prompt [data-prompt-action="accept"]'),
              'an Accept of the draw offer is in view without scrolling');
    assert.equal(await heard(), 2, 'the offer is heard');
    // Beside the clock the answers are below the fold here: the banner asks, and answers.
    await a.waitForSelector('.offer-prompt[data-offer="draw"]:not([hidden])');
    await a.click('.offer-prompt [data-prompt-action="accept"]');
    await b.waitForSelector('.banner:not([hidden])');
    assert.match(await b.textContent('.banner'), /agreed to a draw/);
    assert.deepEqual([...a.errors, ...b.errors], []);
});

// A scripted game on the server's page: `extra` fields over a two-player snapshot ("Me" White).
async function scripted(options, variant, fen, extra = {}) {
    const { context, page } = await newPage(env.browser, options);
    env.contexts.push(context);
    const mock = await mockSocket(page);
    await page.goto(`${env.server.url}/game/g_1`);
    await mock.next((m) => m.type === 'watch' && m.game_id === 'g_1');
    const seats = variant === 'sniderman' ? ['player0', 'player1'] : ['white', 'black'];
    mock.push({ type: 'snapshot', game_id: 'g_1', version: 3, variant, rules: 'house',
                players: [{ seat: seats[0], id: 'p_me', name: 'Me', online: true },
                          { seat: seats[1], id: 'p_you', name: 'You', online: true }],
                start_fen: fen, fen, moves: [], to_move: null, board: boardFromFen(variant, fen), legal: [],
                in_check: false, result: null, draw_offer: null, rematch_offer: null, spectators: 0, chat: [],
                match: null, ...extra });
    await page.waitForSelector('#board[data-version="3"]');
    return { page, mock };
}

const CHESSENCE_BEFORE = 'km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*3MM/4MK[MMMmmm] b 0 1';
const CHESSENCE_AFTER = 'km4/mmm2*/1m2*1/2*3/1*2*1/3*m1/1*1MM1/*3MM/4MK[MMMmmm] w 0 1';

test('b: a drag onto the piece that has just arrived, started at once, captures it; a tap drops a selection', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
        const { page, mock } = await scripted(DESKTOP, 'chessence', CHESSENCE_BEFORE,
                                              { moves: ['e2-e3'], to_move: 'black' });
        // Black's man slides from c7 to e4 (200 ms); White's d3 takes it at once, aiming where the
        // page says e4 is while it slides.
        mock.push({ type: 'event', game_id: 'g_1', version: 4, event: { kind: 'move', by: 'black', move: 'c7-e4',
            fen: CHESSENCE_AFTER, board: boardFromFen('chessence', CHESSENCE_AFTER), to_move: 'white',
            legal: ['d3xe4', 'e3-f4', 'd3-c4'] } });
        await page.waitForSelector('#board[data-version="4"]');
        const [from, to] = await Promise.all(['d3', 'e4'].map((sq) => page.locator(`#board [data-square="${sq}"]`).boundingBox()));
        assert.ok(Math.abs(to.width - from.width) < 1 && Math.abs(to.height - from.height) < 1,
                  `e4 is a square while the man slides in (${JSON.stringify(to)})`);
        await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
        await page.mouse.down();
        await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 2 });
        await page.mouse.up();
        assert.equal((await mock.next((m) => m.type === 'move', 2000)).move, 'd3xe4');
        assert.equal(await page.locator('#board .hl-selected').count(), 0, 'nothing is left selected');
        assert.deepEqual(page.errors, []);
        await page.context().close();
    }
    // On a touch screen: a tap selects a piece, a second tap on it puts it back; a drag dropped where
    // the piece cannot go puts it back too.
    const { page, mock } = await scripted(PHONE, 'chessence', CHESSENCE_AFTER,
                                          { moves: ['e2-e3', 'c7-e4'], to_move: 'white', legal: ['d3xe4', 'e3-f4', 'd3-c4'] });
    await page.tap('#board [data-square="d3"]');
    await page.waitForSelector('#board [data-square="e4"].dest');
    assert.equal(await page.locator('#board .hl-selected').count(), 1);
    await page.tap('#board [data-square="d3"]');
    await page.waitForFunction(() => !document.querySelector('#board .hl-selected'));
    assert.equal(await page.locator('#board .dest').count(), 0, 'the second tap deselects');
    const [from, to] = await Promise.all(['d3', 'b6'].map((sq) => page.locator(`#board [data-square="${sq}"]`).boundingBox()));
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 4 });
    await page.mouse.up();
    assert.equal(await page.locator('#board .hl-selected').count(), 0, 'a drag to nowhere puts the piece back');
    assert.equal(mock.sent.filter((m) => m.type === 'move').length, 0);
    assert.deepEqual(page.errors, []);
});

// An account of the name given, registered from the header's menu.
async function registered(username) {
    const page = await person(DESKTOP);
    await page.click('[data-action="account-menu"]');
    await page.fill('form[data-form="sign-in"] input[name="username"]', username);
    await page.fill('form[data-form="sign-in"] input[name="password"]', 'correct horse battery');
    await page.click('form[data-form="sign-in"] [data-action="register"]');
    await page.waitForFunction((u) => document.body.dataset.account === u, username);
    return page;
}

test('c: a rated game says so, its bars show ratings, one\'s own seek says "rated"; a guest cannot tick Rated', async () => {
    // A guest: Rated is disabled with a hint; a refusal the server words in lower case reads as a sentence.
    const guest = await person(DESKTOP);
    assert.equal(await guest.isDisabled('form.create input[name="rated"]'), true);
    assert.match(await guest.textContent('[data-rated-hint]'), /sign in or register/);
    await guest.evaluate(() => window.chessence.conn.send({ type: 'seek_create', variant: 'chessence', rated: true }));
    await guest.waitForSelector('#toast:not([hidden])');
    const toast = await guest.textContent('#toast');
    assert.match(toast, /^[A-Z]/, `the refusal starts as a sentence: "${toast}"`);
    assert.match(toast, /account/);

    const suffix = `${Date.now() % 100000}`;
    const ann = await registered(`ann_nu${suffix}`);
    const bob = await registered(`bob_nu${suffix}`);
    assert.equal(await ann.isDisabled('form.create input[name="rated"]'), false);
    await ann.check('form.create input[name="rated"]');
    const seekId = await createSeek(ann, { variant: 'chesica', side: 'white' });
    assert.match(await ann.textContent(`[data-my-seek="${seekId}"] .waiting`), /· rated/);
    await bob.click(`tr[data-seek="${seekId}"] [data-accept]`);
    await gameIdOf(ann);
    await gameIdOf(bob);
    for (const page of [ann, bob]) {
        await page.waitForSelector('.tools [data-rated="true"]');
        assert.equal(await page.textContent('.tools [data-rated="true"]'), 'Rated');
        await page.waitForFunction(() => document.querySelectorAll('.player-bar .rating').length === 2);
        assert.deepEqual(await page.locator('.player-bar .rating').allTextContents(), ['1500?', '1500?']);
    }
    assert.deepEqual([...guest.errors, ...ann.errors, ...bob.errors], []);
});

test('d: the analysis board names who cannot move; /analysis without a game and unknown pages say what to do', async () => {
    const page = await person(DESKTOP);
    const game = await socketGame(page, { variant: 'chesica', plies: 6, seed: 3 });
    // The last position as a finished game without a legal move shows it (the server sends no side then).
    await page.route('**/api/legal?*', async (route) => {
        const url = new URL(route.request().url());
        const moves = (url.searchParams.get('moves') ?? '').split(',').filter(Boolean);
        const answer = await (await route.fetch()).json();
        if (moves.length === game.moves.length) {
            answer.legal = [];
            answer.to_move = null;
        }
        await route.fulfill({ json: answer });
    });
    await page.goto(`${env.server.url}/analysis/${game.gameId}`);
    await page.waitForSelector(`#analysis-board[data-ply="${game.moves.length}"]`);
    await page.waitForFunction(() => /no legal move/.test(document.querySelector('.analysis-info').textContent));
    assert.match(await page.textContent('.analysis-info'), /^(White|Black) \((Ann|Bob)\) has no legal move here\.$/);

    // One page load (/tv, straight from the address bar), then the app's own navigation: a page
    // load fetches some 50 files, and the server limits requests per address.
    for (const [i, path] of ['/tv', '/analysis', '/editor', '/nope'].entries()) {
        if (i === 0) {
            await page.goto(`${env.server.url}${path}`);
        } else {
            await page.evaluate((p) => window.chessence.navigate(p), path);
        }
        await page.waitForSelector('[data-missing]');
        assert.equal(await page.locator('section.intro, form.create, #analysis-board').count(), 0, `${path}: not the lobby`);
        assert.equal(await page.getAttribute('[data-missing] [data-action="lobby"]', 'href'), '/');
        if (path === '/analysis') {
            assert.match(await page.textContent('[data-missing]'), /Which game\?.*Analyse with the computer/s);
            assert.doesNotMatch(await page.textContent('main'), /Loading the game/);
            continue;
        }
        assert.match(await page.textContent('[data-not-found] h1'), /Page not found/, path);
        assert.match(await page.textContent('[data-not-found]'), new RegExp(`“${path}”`));
    }
    await page.click('[data-not-found] [data-action="lobby"]');
    await page.waitForSelector('form.create');
    assert.deepEqual(page.errors, []);
});

test('e: a Chessence board names every rank and file, beside a hole too, from either side', async () => {
    for (const seat of ['white', 'black']) {
        const { page } = await scripted(DESKTOP, 'chessence', CHESSENCE_AFTER, {
            moves: ['e2-e3', 'c7-e4'], to_move: 'white',
            players: [{ seat, id: 'p_me', name: 'Me', online: true },
                      { seat: seat === 'white' ? 'black' : 'white', id: 'p_you', name: 'You', online: true }] });
        const labels = async (kind) => (await page.locator(`#board text.coord.${kind}`).allTextContents()).sort();
        assert.deepEqual(await labels('rank'), ['1', '2', '3', '4', '5', '6', '7', '8', '9'], `${seat}: every rank`);
        assert.deepEqual(await labels('file'), ['a', 'b', 'c', 'd', 'e', 'f'], `${seat}: every file`);
        // White sees a2's hole at the left edge: "2" goes on b2; Black sees f8's: "8" goes on e8.
        const square = seat === 'white' ? 'b2' : 'e8';
        assert.equal(await page.textContent(`#board [data-square="${square}"] text.coord.rank`), square[1]);
        assert.deepEqual(page.errors, []);
        await page.context().close();
    }
});

test('f: on a phone the brand and every link stay reachable, the computer\'s start button shows, seeks are near the top', async () => {
    const page = await person(PHONE);
    assert.ok(await inWindow(page, '.site-header .brand'), 'the brand shows');
    await page.click('#menu-button');
    assert.equal(await page.getAttribute('#menu-button', 'aria-expanded'), 'true');
    for (const nav of ['play', 'learn', 'puzzles', 'tournaments', 'leaderboard']) {
        assert.ok(await inWindow(page, `.site-nav a[data-nav="${nav}"]`), `the menu's ${nav} link is in view`);
    }
    await page.click('.site-nav a[data-nav="leaderboard"]');
    await page.waitForSelector('.leaderboard');
    assert.equal(await page.isVisible('.site-nav a[data-nav="leaderboard"]'), false, 'the menu closes on the way');
    // Someone waits for an opponent: on the phone's lobby their seek is in the first screen.
    const other = await person(DESKTOP, `Cleo${++names}`);
    const seekId = await createSeek(other, { variant: 'chesica' });
    await page.click('.site-header .brand');
    await page.waitForSelector(`tr[data-seek="${seekId}"]`);
    const seeksTop = await page.evaluate(() => document.querySelector('section.seeks').getBoundingClientRect().top + scrollY);
    assert.ok(seeksTop < 844 - 200, `the open seeks start ${Math.round(seeksTop)} px down`);
    assert.ok(await inWindow(page, `tr[data-seek="${seekId}"] [data-accept]`), 'its Accept is in the first screen');
    await page.click('form.create [data-action="computer"]');
    await page.waitForSelector('dialog[data-dialog="computer"][open]');
    assert.ok(await inWindow(page, '[data-action="start-computer"]'), 'the computer form\'s start button is in view');
    assert.deepEqual(page.errors, []);
});

test('g: the player given 15 s is told; the computer\'s quick reply waits until the player\'s own piece has landed', async () => {
    const { a, b } = await newGame('chesica', { clock: '5+3' });
    await click(a, 'a3');
    await click(a, 'b4');
    await waitPly(b, 1);
    await a.click('.time-actions [data-action="moretime"]');
    await b.waitForFunction(() => /gave you 15 more seconds/.test(document.getElementById('toast').textContent)
                                  && !document.getElementById('toast').hidden);
    assert.match(await b.textContent('#toast'), /^Ann\d+ gave you 15 more seconds\.$/);
    assert.match(await a.textContent('#toast'), /^You gave Bob\d+ 15 seconds\.$/);

    // Against the computer at level 1, which answers at once: every frame's ply is recorded from
    // the player's click on, and the answer shows no sooner than the player's own slide ends.
    const page = await person(DESKTOP);
    await page.evaluate(() => window.chessence.startComputer({ variant: 'chessence', level: 1, side: 'white', clock: null }));
    await page.waitForSelector('#board[data-my-turn="true"]');
    const move = (await page.getAttribute('#board', 'data-legal')).split(' ').find((m) => /^[a-f]\d-[a-f]\d$/.test(m));
    await page.evaluate(() => {
        window.plyFrames = [];
        const board = document.getElementById('board');
        const frame = (t) => {
            window.plyFrames.push({ t, ply: Number(board.dataset.ply) });
            if (window.plyFrames.length < 400) {
                requestAnimationFrame(frame);
            }
        };
        requestAnimationFrame(frame);
    });
    for (const sq of move.split('-')) {
        await click(page, sq);
    }
    await waitPly(page, 2);
    await page.waitForTimeout(100);
    const frames = await page.evaluate(() => window.plyFrames);
    const first = (ply) => frames.find((f) => f.ply >= ply)?.t;
    const slid = first(2) - first(1);
    assert.ok(slid >= 190, `the computer's move showed ${Math.round(slid)} ms after the player's own began to slide (200 ms)`);
    assert.deepEqual([...a.errors, ...b.errors, ...page.errors], []);
});

test('h: Sniderman\'s objects fit at 1366×768; the strip keeps a round\'s moves while its end shows; the bottom bar stays in view after a game', async () => {
    const { a, b } = await newGame('sniderman');
    const namer = await Promise.any([a, b].map((p) => p.waitForSelector('.match button.object-choice').then(() => p)));
    const seen = await namer.evaluate(() => {
        const list = document.querySelector('.match .objects');
        const box = list.getBoundingClientRect();
        const shown = [...list.querySelectorAll('li')].filter((li) => {
            const r = li.getBoundingClientRect();
            return r.top >= Math.max(box.top, 0) - 1 && r.bottom <= Math.min(box.bottom, innerHeight) + 1;
        }).length;
        return { shown, all: list.children.length, scrolls: list.scrollHeight > list.clientHeight + 1,
                 inWindow: box.top >= 0 && box.bottom <= innerHeight };
    });
    assert.equal(seen.all, 10);
    assert.ok(seen.inWindow, 'the list is inside the window');
    assert.ok(seen.shown === 10 || (seen.scrolls && seen.shown >= 6), `${seen.shown} of 10 objects show (${JSON.stringify(seen)})`);

    // The end of a round on a phone (a scripted match): the strip still lists the round's moves.
    const fen = 'qbnr/rnbk/KBNR/RNBQ 1';
    const objects = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => ({ object: n, text: `object text ${n}`, available: n !== 3 }));
    const { page, mock } = await scripted(PHONE, 'sniderman', fen, {
        to_move: 'odd', legal: ['a1xb2'], match: { rounds: 3, round: 1, phase: 'playing', namer: 'player1', chooser: 'player0',
        odd: 'player0', even: 'player1', objects, object: 3, score: [0, 0], records: [], winner: null } });
    await click(page, 'a1');
    await click(page, 'b2');
    await mock.next((m) => m.type === 'move');
    mock.push({ type: 'event', game_id: 'g_1', version: 4, event: { kind: 'move', move: 'a1xb2', by: 'odd', fen,
                board: boardFromFen('sniderman', fen), to_move: 'even', legal: [], in_check: false, ply: 1 } });
    mock.push({ type: 'event', game_id: 'g_1', version: 5, event: { kind: 'round_over', round: 1, winner: 'odd',
                winner_player: 'player0', score: [1, 0], why: 'EVEN has no capture left.' } });
    mock.push({ type: 'event', game_id: 'g_1', version: 6, event: { kind: 'round_started', round: 2, namer: 'player0',
                fen, board: boardFromFen('sniderman', fen), available_objects: objects.filter((o) => o.available) } });
    await page.waitForSelector('#board[data-round="2"][data-round-end="1"]');
    const strip = await page.textContent('.move-strip');
    assert.doesNotMatch(strip, /No moves yet/, 'the strip does not say "No moves yet." beside the final position');
    assert.match(strip, /a1xb2/);
    await page.click('.round-end [data-action="next-round"]');
    await page.waitForFunction(() => /No moves yet/.test(document.querySelector('.move-strip').textContent));

    // A game's end at 1366×768: the result takes its room, the bottom bar stays in the window.
    const game = await newGame('chesica');
    await click(game.a, 'a3');
    await click(game.a, 'b4');
    await waitPly(game.b, 1);
    await game.a.click('[data-action="resign"]');
    await game.a.click('[data-action="resign"]');
    for (const p of [game.a, game.b]) {
        await p.waitForSelector('.after-game:not([hidden])');
        await p.evaluate(() => window.scrollTo(0, 0));
        assert.ok(await inWindow(p, '.player-bar.bottom'), 'the bottom player bar is in view after the game');
    }
    assert.deepEqual([...a.errors, ...b.errors, ...page.errors, ...game.a.errors, ...game.b.errors], []);
});
