// A whole game played in a second, by two WebSockets opened inside `page` (which must be on the
// server's origin): two guests, a seek and its acceptance, then moves chosen from the legal moves
// the server sends (seeded, preferring captures), then — unless the game ended by itself — a
// resignation. Sniderman: a match of `rounds` whose objects are named and sides chosen by the
// players. Resolves with {gameId, moves (all rounds'), result, tokens: [first, second]}; `finish:
// false` leaves the game running after `plies` moves (nobody resigns).
export async function socketGame(page, { variant = 'chessence', plies = 12, seed = 1, finish = true, rounds = 1 } = {}) {
    return page.evaluate(async ({ variant, plies, seed, finish, rounds }) => {
        let s = seed >>> 0;
        const rand = () => {
            s = (s * 1664525 + 1013904223) >>> 0;
            return s / 2 ** 32;
        };
        const choose = (legal) => {
            const captures = legal.filter((m) => m.includes('x'));
            const pool = captures.length && rand() < 0.7 ? captures : legal;
            return pool[Math.floor(rand() * pool.length)];
        };
        const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
        // A connection whose messages are kept, with next(pred) waiting for the first unread match.
        const connect = (name) => new Promise((resolve, reject) => {
            const ws = new WebSocket(url);
            const c = { ws, seen: [], waiters: [], send: (m) => ws.send(JSON.stringify(m)) };
            c.next = (pred, what) => new Promise((res, rej) => {
                if (c.error) {
                    rej(c.error);
                    return;
                }
                const i = c.seen.findIndex(pred);
                if (i >= 0) {
                    res(c.seen.splice(i, 1)[0]);
                    return;
                }
                const timer = setTimeout(() => rej(new Error(`${name}: no ${what} within 15 s`)), 15000);
                c.waiters.push({ pred, res: (m) => { clearTimeout(timer); res(m); },
                                 rej: (err) => { clearTimeout(timer); rej(err); } });
            });
            ws.onmessage = (e) => {
                const m = JSON.parse(e.data);
                if (m.type === 'error') { // fails whatever waits (an error answers nothing it waits for)
                    const err = new Error(`${name}: ${e.data}`);
                    c.error = err;
                    reject(err);
                    c.waiters.splice(0).forEach((w) => w.rej(err));
                    return;
                }
                const w = c.waiters.findIndex((x) => x.pred(m));
                if (w >= 0) {
                    c.waiters.splice(w, 1)[0].res(m);
                } else {
                    c.seen.push(m);
                }
            };
            ws.onerror = () => reject(new Error(`${name}: the socket failed`));
            ws.onopen = async () => {
                c.send({ type: 'hello', protocol: 1, name });
                const welcome = await c.next((m) => m.type === 'welcome', 'welcome');
                c.id = welcome.player.id;
                c.token = welcome.token;
                resolve(c);
            };
        });
        const a = await connect('Ann');
        const b = await connect('Bob');
        a.send({ type: 'seek_create', variant, side: variant === 'sniderman' ? 'random' : 'white',
                 ...(variant === 'sniderman' ? { rounds } : {}) });
        const seek = await a.next((m) => m.type === 'seek_created', 'seek_created');
        b.send({ type: 'seek_accept', seek_id: seek.seek.seek_id });
        const snap = await a.next((m) => m.type === 'snapshot', 'snapshot');
        await b.next((m) => m.type === 'snapshot', 'snapshot');
        const gameId = snap.game_id;
        const bySeat = {};
        for (const p of snap.players) {
            bySeat[p.seat] = p.id === a.id ? a : b;
        }
        const event = (kind, pred = () => true) => a.next((m) => m.type === 'event' && m.game_id === gameId
            && m.event.kind === kind && pred(m.event), kind);
        const moves = [];
        let result = null;
        // Plays from `legal` (with `sideOf[toMove]` to move) until no move is left or `plies` are made.
        const play = async (legal, toMove, sideOf) => {
            while (legal.length && moves.length < plies) {
                const move = choose(legal);
                sideOf[toMove].send({ type: 'move', game_id: gameId, move });
                const e = (await event('move')).event;
                moves.push(e.move);
                legal = e.legal ?? [];
                toMove = e.to_move;
            }
            return legal;
        };
        let left;
        if (variant === 'sniderman') {
            // Each round: its namer names the first object still free, the other player takes ODD.
            let namer = snap.match.namer;
            let free = snap.match.objects.filter((o) => o.available).map((o) => o.object);
            for (let round = 1; ; round++) {
                bySeat[namer].send({ type: 'name_object', game_id: gameId, object: free[0] });
                await event('object_named');
                bySeat[namer === 'player0' ? 'player1' : 'player0'].send({ type: 'choose_side', game_id: gameId, side: 'odd' });
                const chosen = (await event('side_chosen')).event;
                left = await play(chosen.legal, chosen.to_move, { odd: bySeat[chosen.odd], even: bySeat[chosen.even] });
                if (left.length) {
                    break; // out of plies in the middle of a round
                }
                const next = await a.next((m) => m.type === 'event' && m.game_id === gameId
                    && ((m.event.kind === 'round_started' && m.event.round > round) || m.event.kind === 'game_over'), 'next round');
                if (next.event.kind === 'game_over') {
                    result = next.event.result;
                    break;
                }
                namer = next.event.namer;
                free = next.event.available_objects.map((o) => (typeof o === 'object' ? o.object : o));
            }
        } else {
            left = await play(snap.legal ?? [], snap.to_move, { white: bySeat.white, black: bySeat.black });
            if (!left.length) {
                result = (await event('game_over')).event.result;
            }
        }
        if (!result && finish) {
            a.send({ type: 'resign', game_id: gameId });
            result = (await event('game_over')).event.result;
        }
        a.ws.close();
        b.ws.close();
        return { gameId, moves, result, tokens: [a.token, b.token] };
    }, { variant, plies, seed, finish, rounds });
}
