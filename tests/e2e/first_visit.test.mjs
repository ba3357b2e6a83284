// Issue 26, a first visit that works: the landing page explains the site and the three games, the
// seek form remembers the last choices, an unknown game link says so, the game controls sit beside
// the clock, and no page is wider than a 390 px phone. One real server for the file.
import assert from 'node:assert/strict';
import { newPage, screenshot } from './lib/browser.mjs';
import { suite } from './lib/suite.mjs';
import { chooser, clickIfShown, createSeek, gameIdOf, playMove, waitOnline } from './lib/play.mjs';

const env = suite();
const test = env.test;
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

async function visitor(options = {}) {
    const { context, page } = await newPage(env.browser, { viewport: { width: 1366, height: 768 }, ...options });
    env.contexts.push(context);
    await page.goto(`${env.server.url}/`);
    await waitOnline(page);
    return page;
}

test('landing: what the site and each game are, a link to each rules page, Play selects the game', async () => {
    const page = await visitor();
    const intro = page.locator('section.intro');
    assert.match(await intro.locator('h1').textContent(), /chess variants/i);
    for (const v of ['chessence', 'chesica', 'sniderman']) {
        const row = intro.locator(`[data-intro="${v}"]`);
        assert.ok((await row.locator('p').textContent()).length > 40, `${v} is explained in a line`);
        assert.equal(await row.locator(`a[data-learn="${v}"]`).getAttribute('href'), `/learn/${v}`);
        assert.equal(await row.locator('[data-slot="play-computer"]').count(), 1, `${v}: a place for "Play the computer"`);
    }
    // The intro is what a newcomer reads first, not an empty list.
    const top = async (sel) => (await page.locator(sel).boundingBox()).y;
    assert.ok(await top('section.intro') < await top('section.seeks'));
    assert.doesNotMatch(await page.textContent('main'), /No one is waiting/);
    assert.match(await page.textContent('section.seeks'), /learn a game/i);
    await page.click('[data-play="sniderman"]');
    assert.equal(await page.evaluate(() => document.querySelector('form.create').elements.variant.value), 'sniderman');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.action), 'create');
    await page.click('[data-intro="chesica"] a[data-learn]');
    await page.waitForSelector('article.learn[data-variant="chesica"]');
    assert.deepEqual(page.errors, []);
});

test('the seek form starts from the last choices (game, rules, clock, rated, side, rounds)', async () => {
    const page = await visitor();
    const form = 'form.create';
    const state = () => page.evaluate(() => {
        const f = document.querySelector('form.create');
        const clock = f.querySelector('.clock-presets input:checked').closest('label').textContent;
        return { variant: f.elements.variant.value, rules: f.elements.rules.value, side: f.elements.side.value,
                 rounds: f.elements.rounds.value, rated: f.elements.rated.checked, clock,
                 minutes: f.elements.clock_minutes.value, increment: f.elements.clock_increment.value };
    });
    const fresh = await state();
    assert.equal(fresh.clock, 'Unlimited');
    await page.check(`${form} input[name="variant"][value="chesica"]`, { force: true });
    await page.selectOption(`${form} select[name="rules"]`, 'strict');
    await page.check(`${form} input[name="side"][value="black"]`, { force: true });
    await page.locator(`${form} .clock-presets label`, { hasText: '5+3' }).click();
    await page.click(`${form} [data-action="create"]`);
    await page.waitForSelector('[data-my-seek]');
    await page.reload();
    await waitOnline(page);
    assert.deepEqual({ ...await state(), minutes: undefined, increment: undefined },
                     { ...fresh, variant: 'chesica', rules: 'strict', side: 'black', clock: '5+3', minutes: undefined, increment: undefined });
    // A custom clock and a Sniderman match.
    await page.click('[data-my-seek] [data-cancel]');
    await page.check(`${form} input[name="variant"][value="sniderman"]`, { force: true });
    await page.selectOption(`${form} select[name="rounds"]`, '5');
    await page.check(`${form} input[name="clock"][value="custom"]`, { force: true });
    await page.fill(`${form} input[name="clock_minutes"]`, '4');
    await page.fill(`${form} input[name="clock_increment"]`, '1');
    await page.click(`${form} [data-action="create"]`);
    await page.waitForSelector('[data-my-seek]');
    await page.reload();
    await waitOnline(page);
    const after = await state();
    assert.deepEqual([after.variant, after.rounds, after.clock, after.minutes, after.increment], ['sniderman', '5', 'Custom', '4', '1']);
    // A rules page's Play link asks for its game.
    await page.goto(`${env.server.url}/learn/chessence`);
    await page.click('[data-action="play"]');
    await page.waitForSelector('form.create');
    assert.equal((await state()).variant, 'chessence');
    assert.deepEqual(page.errors, []);
});

// Two visitors in a new game of `variant` (the first plays White), one move played.
async function newGame(variant, clock = '3+2') {
    const a = await visitor();
    const b = await visitor();
    const seekId = await createSeek(a, { variant, side: 'white', clock, rounds: variant === 'sniderman' ? 3 : null });
    await b.click(`tr[data-seek="${seekId}"] [data-accept]`);
    const gameId = await gameIdOf(a);
    await gameIdOf(b);
    return { a, b, gameId };
}

// Where the game controls are: each one's box, the bottom player bar's and the key rule's.
const boxes = (page) => page.evaluate(() => {
    const box = (el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    const controls = [...document.querySelectorAll('.time-actions [data-action], .time-actions .countdown, .actions [data-action]')]
        .map((el) => ({ what: el.dataset.action ?? 'countdown', ...box(el) }));
    return { controls, bar: box(document.querySelector('.player-bar.bottom')),
             rule: box(document.querySelector('.key-rule')), w: innerWidth, h: innerHeight };
});

test('phone: a compact move strip above the board; each move in it reviews its position', async () => {
    const { a, b } = await newGame('chesica', 'Unlimited');
    await b.setViewportSize({ width: 390, height: 844 });
    const first = await playMove(a, chooser(3));
    await b.waitForSelector('#board[data-ply="1"]');
    const second = await playMove(b, chooser(4));
    await a.waitForSelector('#board[data-ply="2"]');
    const strip = b.locator('.move-strip');
    assert.ok(await strip.isVisible(), 'the strip shows on a phone');
    assert.ok(!(await a.locator('.move-strip').isVisible()), 'and not on a desktop, which has the move list beside the board');
    assert.deepEqual(await strip.locator('.mv').allTextContents(), [first, second]);
    const stripBox = await strip.boundingBox();
    const topBar = await b.locator('.player-bar.top').boundingBox();
    assert.ok(stripBox.y + stripBox.height <= topBar.y && stripBox.y >= 0, 'above the board and its top bar, in view');
    await strip.locator('.mv[data-ply="1"]').click();
    await b.waitForSelector('#board[data-ply="1"][data-live="false"]');
    assert.equal(await strip.locator('.mv.active').textContent(), first);
    await strip.locator('.mv[data-ply="1"]').click(); // the move shown: back to live
    await b.waitForSelector('#board[data-ply="2"][data-live="true"]');
    assert.deepEqual([...a.errors, ...b.errors], []);
});

test('game controls (takeback, abort, +15 s, the first-move warning, draw, resign) sit beside the clock', async () => {
    const { a, b } = await newGame('chesica');
    await playMove(a, chooser(3));
    await b.waitForSelector('#board[data-ply="1"]');
    await a.waitForSelector('.time-actions [data-action="takeback-offer"]');
    for (const size of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
        await a.setViewportSize(size);
        await a.waitForTimeout(150);
        const { controls, bar, rule, w, h } = await boxes(a);
        const names = controls.map((c) => c.what);
        for (const need of ['abort', 'takeback-offer', 'moretime', 'countdown', 'draw-offer', 'resign']) {
            assert.ok(names.includes(need), `${need} shown at ${size.width}: ${names}`);
        }
        for (const c of controls) {
            const where = `${c.what} at ${size.width}×${size.height}`;
            assert.ok(c.left >= 0 && c.right <= w && c.top >= 0 && c.bottom <= h, `${where} is in view`);
            if (size.width > 900) {
                // The clocks' column, just above the bottom player's bar.
                assert.ok(c.left >= bar.left - 1 && c.right <= bar.right + 1, `${where} is in the clocks' column`);
                assert.ok(c.bottom <= bar.top && bar.top - c.bottom < 160, `${where} is just above the bottom clock`);
            } else {
                // Under the bottom bar and the status, before the key rule and the rest.
                assert.ok(c.top >= bar.bottom && c.bottom <= rule.top, `${where} is between the bottom clock and the key rule`);
            }
        }
    }
    assert.deepEqual(a.errors, []);
});

test('phone header: a guest\'s whole name, not "G…", and no sideways scrolling; the name opens the settings', async () => {
    const page = await visitor({ ...PHONE });
    const name = await page.evaluate(() => window.chessence.me.name);
    assert.match(name, /^Guest \d{4}$/);
    await page.waitForFunction((n) => document.getElementById('me-name').textContent === n, name);
    for (const path of ['/', '/learn/chessence', '/leaderboard/chessence']) {
        await page.goto(`${env.server.url}${path}`);
        await waitOnline(page);
        await page.waitForFunction((n) => document.getElementById('me-name').textContent === n, name);
        const seen = await page.evaluate(() => {
            const el = document.getElementById('me-name');
            const r = el.getBoundingClientRect();
            return { text: el.textContent, scroll: el.scrollWidth, client: el.clientWidth, left: r.left, right: r.right,
                     page: document.documentElement.scrollWidth, header: document.querySelector('.site-header').scrollWidth };
        });
        assert.equal(seen.text, name);
        assert.ok(seen.client > 0 && seen.scroll <= seen.client, `${path}: the name is cut (${seen.scroll} px in ${seen.client} px)`);
        assert.ok(seen.left >= 0 && seen.right <= 390, `${path}: the name is in view`);
        assert.ok(seen.page <= 390 && seen.header <= 390, `${path}: ${seen.page} px wide, header ${seen.header} px`);
        for (const sel of ['.brand', '#menu-button', '[data-action="account-menu"]', '#me-button', '#conn']) {
            assert.ok(await page.isVisible(sel), `${path}: ${sel} is shown`);
        }
        // The links are one tap away, in the menu (new_user_defects.test.mjs checks each one).
        await page.click('#menu-button');
        for (const nav of ['play', 'learn', 'puzzles', 'tournaments', 'leaderboard']) {
            assert.ok(await page.isVisible(`.site-nav a[data-nav="${nav}"]`), `${path}: the menu's ${nav} link is shown`);
        }
        await page.click('#menu-button');
    }
    await screenshot(page, 'phone-header');
    // The gear gives way to the name, which opens the same settings.
    assert.equal(await page.isVisible('#settings-button'), false);
    await page.click('#me-button');
    await page.waitForSelector('#settings[open] input[name="sound"]');
    assert.deepEqual(page.errors, []);
});

test('a game link that does not exist: a "No such game" page with a way back, no board, no chat', async () => {
    const page = await visitor({ ...PHONE });
    for (const path of ['/game/g_no_such_game', '/analysis/g_no_such_game']) {
        await page.goto(`${env.server.url}${path}`);
        await page.waitForSelector('[data-missing]');
        assert.match(await page.textContent('[data-missing] h1'), /No such game/);
        assert.match(await page.textContent('[data-missing]'), /g_no_such_game/);
        assert.equal(await page.locator('#board, .chat, .chat-form').count(), 0, `${path}: no board and no chat`);
        assert.match(await page.title(), /No such game/);
    }
    await page.click('[data-missing] [data-action="lobby"]');
    await page.waitForSelector('section.intro');
    assert.deepEqual(page.errors, []);
});

// The number of pieces on a page's board.
const pieces = (page) => page.locator('#board [data-piece]').count();

test('sniderman: a round\'s end stays visible — the final position, the decisive capture, the result in view on a phone', { timeout: 120000 }, async () => {
    const { a, b } = await newGame('sniderman', 'Unlimited');
    await b.setViewportSize({ width: 390, height: 844 });
    const deadline = Date.now() + 90000;
    let last = null;
    // Round 1, played until it ends: whoever must act names the first object, picks ODD, or captures.
    while (!(await b.locator('.round-end:not([hidden])').isVisible())) {
        assert.ok(Date.now() < deadline, 'the round ends');
        for (const p of [a, b]) {
            if ((await p.getAttribute('#board', 'data-round')) !== '1' || await p.locator('.round-end:not([hidden])').isVisible()) {
                continue; // round 1 is over for this page: nothing more to do
            }
            await clickIfShown(p.locator('.match button.object-choice').first());
            await clickIfShown(p.locator('.match button[data-side="odd"]'));
            if ((await p.getAttribute('#board', 'data-my-turn')) === 'true') {
                last = await playMove(p, chooser(7));
                await p.waitForFunction((n) => document.querySelector('#board').dataset.myTurn !== 'true'
                                              || document.querySelector('#board').dataset.round !== '1', null);
            }
        }
        await b.waitForTimeout(50);
    }
    // The next deal has arrived (round 2), yet the board still shows round 1's end and its last capture.
    await b.waitForFunction(() => document.querySelector('#board').dataset.round === '2');
    for (const p of [a, b]) {
        await p.waitForSelector('.round-end:not([hidden])');
        assert.equal(await p.getAttribute('#board', 'data-round-end'), '1');
        assert.ok(await pieces(p) < 16, 'the final position, not the new deal of 16 pieces');
        const highlighted = await p.locator('#board [data-square]:has(.hl-last)').evaluateAll((els) => els.map((e) => e.dataset.square).sort());
        assert.deepEqual(highlighted, last.match(/[a-d][1-4]/g).sort(), 'the decisive capture is marked');
        const text = await p.textContent('.round-end');
        assert.match(text, /Round 1: .+ wins \((ODD|EVEN)\)/);
        assert.match(text, new RegExp(`The last capture, ${last}, ended the round`));
        assert.equal(await p.getAttribute('#board', 'data-legal'), '', 'no moves on the old position');
    }
    await screenshot(a, 'sniderman-round-end-desktop');
    await screenshot(b, 'sniderman-round-end-phone');
    const box = await b.locator('.round-end').boundingBox();
    assert.ok(box.y >= 52 && box.y + box.height <= 844, `the round result is in view on the phone, below the header: ${JSON.stringify(box)} at scroll ${await b.evaluate(() => scrollY)}`);
    // Sniderman has no rule sets: its games are not tagged "house rules".
    assert.doesNotMatch(await a.textContent('.tools .variant-tag'), /rules/);
    // Going on shows the new deal.
    await b.click('.round-end [data-action="next-round"]');
    await b.waitForSelector('.round-end', { state: 'hidden' });
    assert.equal(await pieces(b), 16);
    assert.equal(await b.getAttribute('#board', 'data-round-end'), '');
    assert.deepEqual([...a.errors, ...b.errors], []);
});

test('the seek form\'s Rules select is not cut off on a phone, and says what each rule set means', async () => {
    const page = await visitor({ ...PHONE });
    for (const rules of ['house', 'strict']) {
        await page.selectOption('form.create select[name="rules"]', rules);
        const fit = await page.evaluate(() => {
            const select = document.querySelector('form.create select[name="rules"]');
            const probe = document.createElement('span');
            probe.style.font = getComputedStyle(select).font;
            probe.style.whiteSpace = 'nowrap';
            probe.textContent = select.selectedOptions[0].textContent;
            document.body.append(probe);
            const need = probe.getBoundingClientRect().width;
            probe.remove();
            return { need, room: select.clientWidth - 48 }; // padding and the arrow
        });
        assert.ok(fit.need <= fit.room, `${rules}: the option needs ${fit.need}px, the select has ${fit.room}`);
        assert.match(await page.textContent('[data-rules-note]'), rules === 'house' ? /repetition/ : /Only the rules of the sources/);
    }
    assert.deepEqual(page.errors, []);
});

test('past moves keep the powers; labelled lag; the analysis page: one back link and the result; no PGN for an empty aborted game; the player page on a phone', { timeout: 90000 }, async () => {
    const { a, b, gameId } = await newGame('chessence');
    await playMove(a, chooser(5));
    await b.waitForSelector('#board[data-ply="1"]');
    await playMove(b, chooser(6));
    await a.waitForSelector('#board[data-ply="2"]');
    const badges = (p) => p.locator('#board .badge').count();
    const live = await badges(a);
    assert.ok(live > 0, 'the live position shows the R/B/N badges');
    // Reviewing ply 1: from the moves seen live, and after a reload (positions known only by their string).
    for (const reload of [false, true]) {
        if (reload) {
            await a.reload();
            await a.waitForSelector('#board[data-ply="2"]');
        }
        await a.click('.move-list .mv[data-ply="1"]');
        await a.waitForSelector('#board[data-live="false"]');
        await a.waitForFunction(() => document.querySelectorAll('#board .badge').length > 0, null, { timeout: 5000 })
            .catch(() => assert.fail(`no power badges while reviewing${reload ? ' after a reload' : ''}`));
        await a.keyboard.press('End');
    }
    // The lag beside a name says what it is.
    const lag = a.locator('.player-bar .lag').first();
    await lag.waitFor({ timeout: 20000 });
    assert.match(await lag.textContent(), /^lag \d+ ms$/);
    assert.match(await lag.getAttribute('title'), /network lag/);
    // The analysis page: the result, and a single way back.
    await a.click('[data-action="resign"]');
    await a.click('[data-action="resign"]');
    await b.waitForSelector('.banner:not([hidden])');
    // The result ends the move list (and the phone's strip).
    for (const p of [a, b]) {
        await p.waitForSelector('.move-list li.result');
        assert.equal(await p.textContent('.move-list li.result'), '0–1 · Black wins by resignation');
        assert.equal(await p.textContent('.move-strip .result'), '0–1 · Black wins by resignation');
    }
    await b.goto(`${env.server.url}/analysis/${gameId}`);
    await b.waitForSelector('#analysis-board [data-square]');
    assert.match(await b.textContent('.analysis-result'), /wins/);
    // A line of one's own from the start: its way back to the game's moves is not a second "Back to…".
    await b.click('.analysis-moves .mv.start');
    await b.waitForSelector('#analysis-board[data-ply="0"]');
    const first = await b.textContent('.analysis-line .mv[data-ply="1"]');
    const legal = (await b.getAttribute('#analysis-board', 'data-legal')).split(' ').filter((m) => m && !m.startsWith('@'));
    const other = legal.find((m) => !first.includes(m));
    for (const sq of other.match(/[a-z]\d+/g)) {
        await b.click(`#analysis-board [data-square="${sq}"]`);
    }
    await b.waitForSelector('[data-action="back-to-game"]');
    const backs = await b.locator('main a, main button').evaluateAll((els) => els.filter((e) => /^Back to/.test(e.textContent.trim())).map((e) => e.textContent.trim()));
    assert.deepEqual(backs, ['Back to the game page']);
    assert.equal(await b.locator('[data-action="pgn"]').count(), 1, 'a game with moves offers its PGN');
    // A game aborted before any move: nothing to download.
    const empty = await newGame('chesica');
    await empty.a.click('.time-actions [data-action="abort"]');
    await empty.a.waitForSelector('.banner:not([hidden])');
    await empty.a.waitForSelector('.after-game:not([hidden])');
    assert.equal(await empty.a.locator('[data-action="pgn"], [data-dialog-action="pgn"]').count(), 0, 'no PGN after an abort');
    await empty.a.goto(`${env.server.url}/analysis/${empty.gameId}`);
    await empty.a.waitForSelector('.analysis-result');
    assert.match(await empty.a.textContent('.analysis-result'), /aborted/i);
    assert.equal(await empty.a.locator('[data-action="pgn"]').count(), 0);
    // The player page on a 390 px phone: no wider than the screen, the Opponent column shown.
    const id = await b.evaluate(() => window.chessence.me.id);
    await b.setViewportSize({ width: 390, height: 844 });
    await b.goto(`${env.server.url}/player/${id}`);
    await b.waitForSelector(`[data-list="player-games"] tr[data-game="${gameId}"]`);
    assert.ok(await b.evaluate(() => document.documentElement.scrollWidth) <= 390, 'the player page fits 390 px');
    assert.ok(await b.locator('[data-list="player-games"] th', { hasText: 'Opponent' }).isVisible(), 'the Opponent column shows');
    await screenshot(b, 'phone-player-page');
    assert.deepEqual([...a.errors, ...b.errors, ...empty.a.errors], []);
});

test('no page is wider than a 390 px phone', { timeout: 90000 }, async () => {
    const { a, b, gameId } = await newGame('chessence');
    await playMove(a, chooser(2));
    await b.waitForSelector('#board[data-ply="1"]');
    await a.click('[data-action="resign"]');
    await a.click('[data-action="resign"]');
    await a.waitForSelector('.banner:not([hidden])'); // a finished game fills the player page's table
    // An open seek (the lobby's seek table) and a private one (the phone's own, with its link).
    await b.goto(`${env.server.url}/`);
    await waitOnline(b);
    await createSeek(b, { variant: 'sniderman', rounds: 5, clock: { minutes: 4, increment: 1 } });
    const phone = await visitor({ ...PHONE });
    const seekId = await createSeek(phone, { variant: 'sniderman', isPrivate: true, rounds: 3 });
    const meId = await a.evaluate(() => window.chessence.me.id);
    const pages = [['/', 'section.intro'], [`/game/${gameId}`, '#board [data-square]'], [`/join/${seekId}`, '[data-inviter]'],
                   ['/learn/chessence', '.diagram svg.board'], ['/learn/chesica', '.diagram svg.board'],
                   ['/learn/sniderman', '.diagram svg.board'], [`/analysis/${gameId}`, '#analysis-board [data-square]'],
                   [`/player/${meId}`, '[data-list="player-games"] tr[data-game]'], ['/leaderboard/chessence', '.leaderboard'], ['/game/g_missing', '[data-missing]']];
    const wide = [];
    for (const [path, ready] of pages) {
        await phone.goto(`${env.server.url}${path}`);
        await phone.waitForSelector(ready);
        const width = await phone.evaluate(() => document.documentElement.scrollWidth);
        if (width > 390) {
            wide.push(`${path}: ${width}px`);
        }
        await screenshot(phone, `phone-390${path.replace(/\//g, '-').replace(/-g_[0-9a-f]{8,}|-s_[0-9a-f]{8,}|-p_[0-9a-f]{8,}/, '')}`);
    }
    assert.deepEqual(wide, []);
    assert.deepEqual(phone.errors, []);
});
