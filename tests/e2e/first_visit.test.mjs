// Issue 26, a first visit that works: the landing page explains the site and the three games, the
// seek form remembers the last choices, an unknown game link says so, the game controls sit beside
// the clock, and no page is wider than a 390 px phone. One real server for the file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPage } from './lib/browser.mjs';
import { suite } from './lib/suite.mjs';
import { waitOnline } from './lib/play.mjs';

const env = suite();
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
