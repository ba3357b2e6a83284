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
