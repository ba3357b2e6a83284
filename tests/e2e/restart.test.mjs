// A server restart with the game page open (issue 24): SIGTERM drains the server — each page is
// told `server_restart` and sees its connection close with 1012 — and a new server on the same
// port and database takes over; both pages come back by themselves, without a reload, and the game
// goes on from where it was.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, newPage } from './lib/browser.mjs';
import { recordFrames } from './lib/frames.mjs';
import { chooser, createSeek, gameIdOf, playMove, plyOf, setName, waitOnline, whoseTurn } from './lib/play.mjs';
import { startServer } from './lib/server.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chessence-restart-'));
const db = path.join(dir, 'restart.db');
let server = null;
let browser = null;
after(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
});

test('a restart mid-game: server_restart, close 1012, the pages reconnect and play on', { timeout: 120000 }, async () => {
    server = await startServer({ db });
    const port = Number(new URL(server.url).port);
    browser = await launch();
    const people = [];
    for (const name of ['Ann', 'Ben']) {
        const { page } = await newPage(browser);
        const frames = recordFrames(page);
        const closes = [];
        await page.exposeFunction('noteClose', (code) => closes.push(code));
        await page.addInitScript(() => {
            const Native = window.WebSocket;
            window.WebSocket = class extends Native {
                constructor(...args) {
                    super(...args);
                    this.addEventListener('close', (e) => window.noteClose(e.code));
                }
            };
        });
        await page.goto(`${server.url}/`);
        await waitOnline(page);
        await setName(page, name);
        await page.evaluate(() => { window.sameDocument = true; });
        people.push({ page, frames, closes });
    }
    const [ann, ben] = people;
    const seekId = await createSeek(ann.page, { variant: 'chesica', side: 'white' });
    await ben.page.click(`tr[data-seek="${seekId}"] [data-accept]`);
    await ann.page.waitForSelector('#board[data-ply]');
    await ben.page.waitForSelector('#board[data-ply]');
    const gameId = await gameIdOf(ann.page);
    const choose = chooser(7);
    await playMove(ann.page, choose);
    for (const p of people) {
        await p.page.waitForFunction(() => document.querySelector('#board').dataset.ply === '1');
    }

    assert.equal(await server.stop(), 0, 'the drained server exits with 0');
    for (const p of people) {
        for (const end = Date.now() + 10000; p.closes.length === 0 && Date.now() < end;) {
            await new Promise((resolve) => setTimeout(resolve, 50));
        }
        assert.ok(p.frames.some((m) => m.type === 'server_restart'), 'the page was told server_restart');
        assert.deepEqual(p.closes, [1012], 'closed once, with 1012 (service restart)');
        assert.notEqual(await p.page.evaluate(() => document.body.dataset.conn), 'online');
    }

    server = await startServer({ port, db });
    for (const p of people) {
        await p.page.waitForFunction(() => document.body.dataset.conn === 'online', null, { timeout: 30000 });
        assert.equal(await p.page.evaluate(() => window.sameDocument === true), true, 'no reload');
        assert.equal(await gameIdOf(p.page), gameId);
        assert.equal(await plyOf(p.page), 1, 'the stored move is still there');
    }
    const mover = await whoseTurn([ann.page, ben.page]);
    assert.equal(mover, ben.page, 'Black is to move after the restart');
    await playMove(ben.page, choose);
    await ann.page.waitForFunction(() => document.querySelector('#board').dataset.ply === '2');
});
