// The rules pages against the real server: each game's page renders its sections, every diagram
// gets its position and legal moves from GET /api/legal, clicking a piece shows where it may go and
// why, moves can be played on a diagram, and the header's Rules link leads there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, screenshot } from './lib/browser.mjs';
import { startServer } from './lib/server.mjs';

let server;
let browser;
before(async () => {
    server = await startServer();
    browser = await launch();
});
after(async () => {
    await browser?.close();
    await server?.stop();
});

// Waits until every diagram on the page has its position.
async function diagramsLoaded(page) {
    await page.waitForFunction(() => {
        const all = [...document.querySelectorAll('.diagram')];
        return all.length > 0 && all.every((d) => d.querySelector('svg.board [data-square]'));
    });
    return page.locator('.diagram').count();
}

const diagram = (page, i) => page.locator('.diagram').nth(i);

test('chessence: the rules page teaches powers with live diagrams', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/`);
    await page.click('.site-nav a[data-nav="learn"]');
    await page.waitForFunction(() => location.pathname === '/learn/chessence');
    assert.ok(await diagramsLoaded(page) >= 5, 'a diagram per section');
    assert.match(await page.textContent('h1'), /Chessence/);
    for (const title of ['Board and setup', 'powers', 'Drops', 'Check', 'How the game ends', 'House rules']) {
        assert.ok(await page.locator(`.learn-section h2:has-text("${title}")`).count(), title);
    }
    // The start diagram: 36 legal moves from the server, powers drawn on the men.
    const start = diagram(page, 0);
    assert.equal((await start.locator('.board-wrap').getAttribute('data-legal')).split(' ').length, 36);
    assert.ok(await start.locator('.powers .badge').count() > 0, 'men show their powers');
    // The powers diagram: d3 has a friend beside it (rook) and one diagonally (bishop).
    const powers = diagram(page, 1);
    await powers.locator('[data-square="d3"]').click();
    await powers.locator('.dest').first().waitFor();
    const info = await powers.locator('.diagram-info').textContent();
    assert.match(info, /moves as a rook and bishop/);
    assert.match(info, /beside it/);
    assert.match(await powers.locator('[data-square="d3"]').getAttribute('aria-label'), /moves as a rook and bishop/);
    // Play d3-c3 on it: the diagram asks the server for the next position.
    await powers.locator('[data-square="d3"]').click();
    await powers.locator('[data-square="d3"]').click();
    await powers.locator('.dest').first().waitFor();
    const dest = await powers.locator('.dest').first().getAttribute('data-square');
    await powers.locator(`[data-square="${dest}"]`).click();
    await powers.locator('.board-wrap[data-ply="1"]').waitFor();
    assert.match(await powers.locator('.diagram-info').textContent(), /Black to move/);
    await powers.locator('[data-action="reset"]').click();
    await powers.locator('.board-wrap[data-ply="0"]').waitFor();
    // Drops: the reserve pile offers the empty starting square.
    const drops = page.locator('.diagram').filter({ hasText: 'reserve pile' });
    await drops.locator('[data-reserve="white"]:not([disabled])').click();
    await drops.locator('[data-square="e3"].dest').waitFor();
    // Check: three answers, the king marked.
    const check = page.locator('.diagram').filter({ hasText: 'three moves get out of it' });
    assert.equal(await check.locator('.board-wrap').getAttribute('data-legal'), 'c3xb2 d2-c1 d2-e1');
    assert.match(await check.locator('.diagram-info').textContent(), /in check/);
    await screenshot(page, 'learn-chessence');
    assert.deepEqual(page.errors, []);
    await context.close();
});

test('chesica: pieces are checkers men marked with their power; jumps and promotion', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}/learn/chesica`);
    await diagramsLoaded(page);
    const start = diagram(page, 0);
    assert.equal((await start.locator('.board-wrap').getAttribute('data-legal')).split(' ').length, 29);
    assert.equal(await start.locator('.piece.checkers').count(), 24, 'every piece is a checkers man');
    assert.match(await start.locator('[data-square="c1"]').getAttribute('aria-label'), /White queen man/);
    const chain = page.locator('.diagram').filter({ hasText: 'after e5 it chooses' });
    await chain.locator('[data-square="c3"]').click();
    await chain.locator('[data-square="e5"]').click();
    assert.equal(await chain.locator('.dest').count(), 2, 'two ways on from e5');
    await chain.locator('[data-square="g7"]').click();
    await chain.locator('.board-wrap[data-ply="1"]').waitFor();
    const crowned = page.locator('.diagram').filter({ hasText: 'backward jump' });
    assert.equal(await crowned.locator('.piece.checkers.promoted').count(), 1);
    assert.equal(await crowned.locator('.board-wrap').getAttribute('data-legal'), 'd4xb2');
    await screenshot(page, 'learn-chesica');
    assert.deepEqual(page.errors, []);
    await context.close();
});

test('sniderman: either colour moves, every move captures; the objects are listed', async () => {
    const { context, page } = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(`${server.url}/learn/sniderman`);
    await diagramsLoaded(page);
    const deal = diagram(page, 0);
    const legal = (await deal.locator('.board-wrap').getAttribute('data-legal')).split(' ');
    assert.equal(legal.length, 20);
    assert.ok(legal.every((m) => m.includes('x')));
    assert.equal(await deal.locator('.sq.red').count(), 8);
    assert.equal(await page.locator('.learn-section p:has-text("ODD wins if")').count(), 10);
    const end = diagram(page, 1);
    await end.locator('[data-square="a1"]').tap();
    await end.locator('[data-square="a2"]').tap();
    await end.locator('.board-wrap[data-ply="1"]').waitFor();
    await screenshot(page, 'phone-learn-sniderman');
    assert.deepEqual(page.errors, []);
    await context.close();
});

test('rules pages: contents links land below the sticky header; the piece explanations read well', async () => {
    const { context, page } = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(`${server.url}/learn/chessence`);
    await diagramsLoaded(page);
    const header = await page.locator('.site-header').boundingBox();
    for (const i of [1, 3]) {
        const link = page.locator('.learn-toc a').nth(i);
        const id = (await link.getAttribute('href')).slice(1);
        await link.click();
        await page.waitForFunction((x) => document.activeElement?.id === x, id);
        await page.waitForTimeout(700); // the smooth scroll
        const top = (await page.locator(`[id="${id}"]`).boundingBox()).y;
        assert.ok(top >= header.y + header.height, `#${id} at ${top}, under the header ending at ${header.y + header.height}`);
    }
    // A man's powers and why, without brackets inside brackets.
    const powers = diagram(page, 1);
    await powers.locator('[data-square="d3"]').click();
    await powers.locator('.dest').first().waitFor();
    const why = await powers.locator('.diagram-info').textContent();
    assert.match(why, /\(a friendly man/);
    assert.doesNotMatch(why, /\([^)]*\(/, why);
    // Sniderman: "The White knight on b1 moves like a chess knight", not "is moves like".
    await page.goto(`${server.url}/learn/sniderman`);
    await diagramsLoaded(page);
    const deal = diagram(page, 0);
    const square = await deal.locator('[data-piece="N"], [data-piece="n"]').first().getAttribute('data-square');
    await deal.locator(`[data-square="${square}"]`).tap();
    const text = await deal.locator('.diagram-info').textContent();
    assert.match(text, /knight on [a-d][1-4] moves like a chess knight/);
    assert.doesNotMatch(text, /\bis moves\b/);
    assert.deepEqual(page.errors, []);
    await context.close();
});
