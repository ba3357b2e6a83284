// The computer's analysis on the analysis board (issue 25, item 3): a finished game's analysis asked
// for from its panel, its progress, then the evaluation graph, each side's accuracy and mistakes,
// the judged moves marked in the move list, the evaluation of the position shown, the engine's move
// as an arrow, the better line played out as a side line; a game still on has no request button;
// the game page's "Analyse with the computer" asks for it on arrival; the server's refusals in
// words; Sniderman's rounds; no horizontal overflow at 390×844, screenshots at both sizes. Games are
// played in a second by two WebSockets (lib/socket_game.mjs); what the page should show is derived
// from the analysis the test reads itself (GET /api/games/<id>/analysis), never from known output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage, screenshot } from './lib/browser.mjs';
import { suite } from './lib/suite.mjs';
import { startServer } from './lib/server.mjs';
import { cutOff, lowContrast, smallControls } from './lib/checks.mjs';
import { socketGame } from './lib/socket_game.mjs';
import { waitOnline } from './lib/play.mjs';

const env = suite();
const WIDE = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

async function visitor(options = WIDE, server = env.server) {
    const { context, page } = await newPage(env.browser, options);
    env.contexts.push(context);
    await page.goto(`${server.url}/`);
    await waitOnline(page);
    return page;
}


async function analysisOf(gameId, { method = 'GET', token = null, server = env.server } = {}) {
    const res = await fetch(`${server.url}/api/games/${encodeURIComponent(gameId)}/analysis`,
                            { method, headers: token ? { Authorization: `Bearer ${token}` } : {} });
    return { status: res.status, body: await res.json() };
}

// Asks for the analysis of `gameId` and waits until it is done: the analysis.
async function analysed(gameId) {
    assert.ok([200, 202].includes((await analysisOf(gameId, { method: 'POST' })).status));
    for (const end = Date.now() + 120000; Date.now() < end;) {
        const { body } = await analysisOf(gameId);
        if (body.status === 'done') {
            return body;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`the analysis of ${gameId} did not finish`);
}

// The evaluation as the panel writes it (docs/client.md): engine units ÷ 100, #n, a result.
function evalWords(ev, variant) {
    if (ev.result !== undefined) {
        if (variant === 'sniderman') {
            return ev.result === 'draw' ? 'Draw' : `${ev.result === 'win' ? 'ODD' : 'EVEN'} wins`;
        }
        return { win: '1–0', loss: '0–1' }[ev.result] ?? '½–½';
    }
    if (ev.mate !== undefined) {
        return ev.mate < 0 ? `#−${-ev.mate}` : `#${ev.mate}`;
    }
    const v = Math.round(ev.cp / 10) / 10;
    return v > 0 ? `+${v.toFixed(1)}` : v < 0 ? `−${(-v).toFixed(1)}` : '0.0';
}

const boardAt = (page, ply, line = 'main') => page.waitForSelector(`#analysis-board[data-ply="${ply}"][data-line="${line}"]`);
const evalShown = (page) => page.textContent('.engine-eval .eval');
const arrowMoves = (page) => page.$$eval('#analysis-board .arrow', (els) => els.map((e) => e.dataset.move));

// Checks the done panel against the analysis `a` of a game with `seats` (in the players' order).
async function checkSummary(page, a, seats) {
    const points = Number(await page.getAttribute('svg.eval-graph', 'data-points'));
    const kinds = a.variant === 'sniderman' ? ['blunder'] : ['inaccuracy', 'mistake', 'blunder'];
    for (const seat of seats) {
        const row = page.locator(`.engine-summary tr[data-seat="${seat}"]`);
        const acc = a.accuracy[seat];
        assert.equal((await row.locator('td[data-accuracy]').textContent()).trim(),
                     typeof acc === 'number' ? `${acc.toFixed(1)} %` : '–', `${seat}'s accuracy`);
        for (const k of kinds) {
            const n = a.plies.filter((p) => p.by === seat && p.judgement === k).length;
            assert.equal(await row.locator(`td[data-count="${k}"]`).textContent(), String(n), `${seat}'s ${k}s`);
        }
    }
    assert.equal(await page.locator('.engine-summary thead .judgement').count(), kinds.length);
    return points;
}

// Every move of the list carries the judgement (and only it) that the analysis gives it.
async function checkMarks(page, plies) {
    const shown = await page.$$eval('.analysis-line .mv[data-line="main"]', (els) => els.map((e) => ({
        ply: Number(e.dataset.ply), judgement: e.dataset.judgement ?? null,
        mark: e.querySelector('.judgement')?.textContent ?? null })));
    assert.equal(shown.length, plies.length, 'one button per analysed move');
    for (const p of plies) {
        const s = shown.find((x) => x.ply === p.ply);
        assert.equal(s.judgement, p.judgement, `move ${p.ply}'s judgement`);
        assert.equal(s.mark, p.judgement ? MARKS[p.judgement] : null, `move ${p.ply}'s mark`);
    }
}

test('chessence: request, progress, graph, accuracy, marks, evaluation, arrow, better line (1366×768)', { timeout: 240000 }, async () => {
    const page = await visitor(WIDE);
    const game = await socketGame(page, { variant: 'chessence', plies: 16, seed: 3 });
    await page.goto(`${env.server.url}/analysis/${game.gameId}`);
    await page.waitForSelector('#analysis-board[data-ply]');
    await page.waitForSelector('.engine[data-state="none"] [data-action="request-analysis"]');
    assert.equal((await page.textContent('[data-action="request-analysis"]')).trim(), 'Request computer analysis');

    await page.click('[data-action="request-analysis"]');
    await page.waitForSelector('.engine[data-state="waiting"] .engine-progress');
    const progress = await page.textContent('.engine-progress');
    assert.match(progress, /^(Analysing…|Waiting for the computer…) \d+ of \d+ positions$/, progress);
    assert.equal(Number(await page.getAttribute('.engine-progress', 'data-total')), game.moves.length + 1);
    await screenshot(page, 'analysis-progress-1366x768');
    await page.waitForSelector('.engine[data-state="done"]', { timeout: 120000 });

    const a = (await analysisOf(game.gameId)).body;
    const n = a.plies.length;
    assert.equal(n, game.moves.length);
    // The graph: one point a position, a dot on each mistake and blunder; the sides' numbers.
    assert.equal(await checkSummary(page, a, ['white', 'black']), n + 1, 'graph points');
    const marked = a.plies.filter((p) => p.judgement === 'mistake' || p.judgement === 'blunder');
    assert.deepEqual(await page.$$eval('svg.eval-graph .eg-mark', (els) => els.map((e) => Number(e.dataset.index))),
                     marked.map((p) => p.ply), 'the graph marks the mistakes and blunders');
    await checkMarks(page, a.plies);

    // The page opens at the end: its evaluation, no move left to suggest.
    await boardAt(page, n);
    assert.equal(await evalShown(page), evalWords(a.plies[n - 1].eval, 'chessence'));
    assert.match(await page.getAttribute('.engine-eval .eval', 'title'), /Engine units/);
    assert.equal(await page.getAttribute('svg.eval-graph', 'data-current'), String(n));
    assert.deepEqual(await arrowMoves(page), []);

    // The start: the start's evaluation and the engine's first move as an arrow.
    await page.click('.analysis-moves .mv.start');
    await boardAt(page, 0);
    assert.equal(await evalShown(page), evalWords(a.start.eval, 'chessence'));
    await page.waitForSelector(`#analysis-board .arrow[data-move="${a.plies[0].best}"]`);
    assert.equal(await page.getAttribute('.engine-eval .best', 'data-best'), a.plies[0].best);

    // A click on the graph goes to the position under it.
    const k = Math.floor(n / 2);
    const box = await page.locator('svg.eval-graph').boundingBox();
    await page.mouse.click(box.x + (box.width * (6 + (k * 588) / n)) / 600, box.y + box.height / 2);
    await boardAt(page, k);
    assert.equal(await page.getAttribute('svg.eval-graph', 'data-current'), String(k));
    assert.equal(await evalShown(page), evalWords(a.plies[k - 1].eval, 'chessence'));
    assert.deepEqual(await arrowMoves(page), [a.plies[k].best], 'the arrow: the best move from here');

    // A judged move: its comment, then the better line on the board, step by step.
    const judged = a.plies.find((p) => p.judgement && p.pv.length);
    if (!judged) {
        test.diagnostic?.('this game has no judged move: the better line is not checked');
    } else {
        const j = judged.ply;
        await page.click(`.analysis-line .mv[data-line="main"][data-ply="${j}"]`);
        await boardAt(page, j);
        await page.waitForSelector(`.engine-comment[data-judgement="${judged.judgement}"]`);
        assert.match(await page.textContent('.engine-comment'), new RegExp(`Better was ${judged.best}`));
        await screenshot(page, 'analysis-judged-1366x768');
        await page.click('[data-action="better-line"]');
        await boardAt(page, j, 'side');
        const line = await page.$$eval('.analysis-line.side[data-source="engine"] .mv', (els) => els.map((e) => e.textContent));
        assert.equal(line.length, judged.pv.length);
        judged.pv.forEach((m, i) => assert.ok(line[i].endsWith(` ${m}`), `the line's move ${i + 1}: ${line[i]} is ${m}`));
        const to = judged.pv[0].match(/[a-z]\d+/g).at(-1);
        assert.ok(await page.getAttribute(`#analysis-board [data-square="${to}"]`, 'data-piece'), 'the better move is on the board');
        assert.deepEqual(await arrowMoves(page), judged.pv.slice(1, 2), 'the arrow: the line\'s next move');
        await screenshot(page, 'analysis-better-line-1366x768');
        if (judged.pv.length > 1) {
            await page.click('[data-nav="next"]');
            await boardAt(page, j + 1, 'side');
        }
        await page.click('[data-action="back-to-game"]');
        await boardAt(page, j - 1);
    }
    assert.deepEqual(await cutOff(page), [], 'nothing wider than 1366 px');
    assert.deepEqual(await lowContrast(page), [], 'contrast (dark)');
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(await lowContrast(page), [], 'contrast (light)');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.click('.analysis-moves .mv.start');
    await boardAt(page, 0);
    await screenshot(page, 'analysis-engine-1366x768');
    assert.deepEqual(page.errors, []);
});

test('a phone (390×844): the analysed game fits, the graph scales, controls are big enough', { timeout: 240000 }, async () => {
    const page = await visitor(PHONE);
    const game = await socketGame(page, { variant: 'chessence', plies: 20, seed: 11 });
    const a = await analysed(game.gameId);
    await page.goto(`${env.server.url}/analysis/${game.gameId}`);
    await page.waitForSelector('.engine[data-state="done"] svg.eval-graph');
    await boardAt(page, a.plies.length);
    assert.equal(await checkSummary(page, a, ['white', 'black']), a.plies.length + 1);
    await checkMarks(page, a.plies);
    assert.deepEqual(await cutOff(page, ['#analysis-board svg.board']), [], 'no horizontal overflow; the board in view');
    const graph = await page.locator('svg.eval-graph').boundingBox();
    assert.ok(graph.x >= 0 && graph.x + graph.width <= 390 && graph.width > 250, `the graph scales: ${JSON.stringify(graph)}`);
    assert.deepEqual(await smallControls(page), [], 'controls big enough to tap');
    await page.click('.analysis-moves .mv.start');
    await boardAt(page, 0);
    await page.waitForSelector(`#analysis-board .arrow[data-move="${a.plies[0].best}"]`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'analysis-engine-390x844');
    const judged = a.plies.find((p) => p.judgement);
    if (judged) {
        await page.click(`.analysis-line .mv[data-line="main"][data-ply="${judged.ply}"]`);
        await page.waitForSelector('.engine-comment [data-action="better-line"]');
        assert.deepEqual(await smallControls(page), [], 'the better line\'s button is big enough to tap');
        assert.deepEqual(await cutOff(page), [], 'no horizontal overflow with the comment');
    }
    await page.locator('.engine').scrollIntoViewIfNeeded();
    await screenshot(page, 'analysis-engine-panel-390x844');
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(await lowContrast(page), [], 'contrast (light)');
    await screenshot(page, 'analysis-engine-light-390x844');
    assert.deepEqual(page.errors, []);
});

test('sniderman: each round\'s results and blunders, only blunders counted', { timeout: 240000 }, async () => {
    const page = await visitor(WIDE);
    const game = await socketGame(page, { variant: 'sniderman', rounds: 3, plies: 60, seed: 3 });
    const a = await analysed(game.gameId);
    assert.ok(a.rounds.length >= 2, `a match of two rounds or more: ${a.rounds.length}`);
    await page.goto(`${env.server.url}/analysis/${game.gameId}`);
    await page.waitForSelector('.engine[data-state="done"] svg.eval-graph');
    await checkSummary(page, a, ['player0', 'player1']);
    for (const round of a.rounds) {
        const plies = a.plies.filter((p) => p.round === round.round);
        await page.click(`[data-round="${round.round}"]`);
        await page.waitForSelector(`[data-round="${round.round}"][aria-pressed="true"]`);
        await boardAt(page, 0);
        assert.equal(Number(await page.getAttribute('svg.eval-graph', 'data-points')), plies.length + 1, `round ${round.round}'s graph`);
        await checkMarks(page, plies);
        assert.equal(await evalShown(page), evalWords(round.start.eval, 'sniderman'));
        assert.match(await evalShown(page), /^(ODD|EVEN) wins$/);
        assert.deepEqual(await arrowMoves(page), [plies[0].best]);
    }
    const blunder = a.plies.find((p) => p.judgement === 'blunder');
    if (blunder) {
        await page.click(`[data-round="${blunder.round}"]`);
        await page.click(`.analysis-line .mv[data-line="main"][data-ply="${blunder.ply}"]`);
        await page.waitForSelector('.engine-comment[data-judgement="blunder"]');
        await screenshot(page, 'analysis-sniderman-1366x768');
        await page.click('[data-action="better-line"]');
        await boardAt(page, blunder.ply, 'side');
        assert.ok((await page.textContent('.analysis-line.side .mv')).endsWith(` ${blunder.best}`));
        await page.click('[data-action="back-to-game"]');
    } else {
        await screenshot(page, 'analysis-sniderman-1366x768');
    }
    assert.deepEqual(page.errors, []);
});

test('a game still on: no request button, "after the game"; the game page\'s "Analyse with the computer" asks for it', { timeout: 240000 }, async () => {
    const page = await visitor(WIDE);
    const running = await socketGame(page, { variant: 'chessence', plies: 4, finish: false });
    await page.goto(`${env.server.url}/analysis/${running.gameId}`);
    await page.waitForSelector('.engine[data-state="unfinished"]');
    assert.match(await page.textContent('.engine'), /once it is over/);
    assert.equal(await page.locator('[data-action="request-analysis"]').count(), 0);

    // A finished game's page (a spectator's): one link to the analysis board, which asks for it.
    const done = await socketGame(page, { variant: 'chesica', plies: 10, seed: 9 });
    await page.goto(`${env.server.url}/game/${done.gameId}`);
    await page.waitForSelector('[data-action="analysis"]');
    const links = page.locator('a[href^="/analysis/"]:visible');
    assert.equal(await links.count(), 1, 'one link to the analysis board');
    assert.equal((await links.textContent()).trim(), 'Analyse with the computer');
    await links.click();
    await page.waitForFunction(() => location.pathname.startsWith('/analysis/'));
    await page.waitForSelector('.engine:is([data-state="waiting"], [data-state="done"])');
    assert.notEqual((await analysisOf(done.gameId)).status, 404, 'the analysis was asked for');
    await page.waitForSelector('.engine[data-state="done"]', { timeout: 120000 });
    assert.deepEqual(page.errors, []);
});

test('the server\'s refusals in words: too many analyses, no computer', { timeout: 240000 }, async () => {
    // Four long games ahead in the queue, two of them this visitor's: a fifth is refused.
    const page = await visitor(WIDE);
    const token = await page.evaluate(() => localStorage.getItem('chessence.token'));
    assert.ok(token, 'the visitor has a token');
    const games = [];
    for (let i = 0; i < 5; i++) {
        games.push(await socketGame(page, { variant: 'chessence', plies: 40, seed: 20 + i }));
    }
    for (let i = 0; i < 4; i++) {
        const r = await analysisOf(games[i].gameId, { method: 'POST', token: i >= 2 ? token : null });
        assert.equal(r.status, 202, JSON.stringify(r.body));
    }
    await page.goto(`${env.server.url}/analysis/${games[4].gameId}`);
    await page.click('[data-action="request-analysis"]');
    await page.waitForSelector('.engine-error');
    const shown = await page.textContent('.engine-error');
    const r = await analysisOf(games[4].gameId, { method: 'POST', token });
    assert.equal(r.status, 429);
    assert.equal(r.body.code, 'too_many_analyses');
    assert.ok(shown.toLowerCase().includes(r.body.error.toLowerCase()), `"${shown}" says "${r.body.error}"`);
    assert.equal(await page.locator('[data-action="request-analysis"]').count(), 1, 'the button stays');

    // A server without bot threads analyses nothing.
    const server = await startServer({ args: ['--bot-threads', '0'] });
    try {
        const p = await visitor(WIDE, server);
        const g = await socketGame(p, { variant: 'chesica', plies: 6, seed: 2 });
        await p.goto(`${server.url}/analysis/${g.gameId}`);
        await p.click('[data-action="request-analysis"]');
        await p.waitForSelector('.engine-error');
        const text = await p.textContent('.engine-error');
        const u = await analysisOf(g.gameId, { method: 'POST', server });
        assert.equal(u.body.code, 'analysis_unavailable');
        assert.ok(text.toLowerCase().includes(u.body.error.toLowerCase()), `"${text}" says "${u.body.error}"`);
        await screenshot(p, 'analysis-unavailable-1366x768');
        assert.deepEqual(p.errors, []);
    } finally {
        await server.stop();
    }
});
