// A stand-in for chessence-server while it is being written (CHESSENCE_FAKE_SERVER=1): speaks
// protocol v1 to every browser context through context.routeWebSocket, with made-up move rules
// (steps to neighbouring squares, games ending after a few plies). A development aid, not a test.
import { serveStatic } from './static_server.mjs';
import { WEB_ROOT } from './browser.mjs';
import { boardFromFen } from '../../../web-client/protocol.js';

const START = {
    chessence: 'km4/mmm2*/1mm1*1/2*3/1*2*1/3*2/1*1MM1/*2MMM/4MK[MMMmmm] w 0 1',
    chesica: '1q1q1q1q/r1r1r1r1/1b1b1b1b/8/8/B1B1B1B1/1R1R1R1R/Q1Q1Q1Q1 w 0 1',
    sniderman: 'qbnr/rnbk/KBNR/RNBQ 1',
};
const sq = (b, i) => String.fromCharCode(97 + (i % b.files)) + (Math.floor(i / b.files) + 1);
const isWhite = (c) => c && c !== '*' && c.replace('+', '') === c.replace('+', '').toUpperCase();

function fakeLegal(g) {
    const b = g.board;
    const out = [];
    const mine = (c) => (g.variant === 'sniderman' ? c && c !== '*' : c && c !== '*' && isWhite(c) === (g.toMove === 'white'));
    for (let i = 0; i < b.squares.length; i++) {
        const c = b.squares[i];
        if (!mine(c) || c.toLowerCase() === 'k') {
            continue;
        }
        const f = i % b.files;
        for (const [df, dr] of [[0, 1], [0, -1], [1, 0], [-1, 0], [1, 1], [-1, -1]]) {
            const nf = f + df;
            const j = i + dr * b.files + df;
            if (nf < 0 || nf >= b.files || j < 0 || j >= b.squares.length || b.squares[j] === '*') {
                continue;
            }
            const t = b.squares[j];
            if (g.variant === 'sniderman') {
                if (t && isWhite(t) !== isWhite(c)) {
                    out.push(`${sq(b, i)}x${sq(b, j)}`);
                }
            } else if (!t) {
                out.push(`${sq(b, i)}-${sq(b, j)}`);
            } else if (isWhite(t) !== isWhite(c) && t.toLowerCase() !== 'k') {
                out.push(`${sq(b, i)}x${sq(b, j)}`);
            }
        }
    }
    if (g.variant === 'chessence' && b.reserves[g.toMove === 'white' ? 0 : 1] > 0) {
        const target = g.toMove === 'white' ? 'b2' : 'e8';
        const j = (Number(target[1]) - 1) * b.files + target.charCodeAt(0) - 97;
        if (!b.squares[j]) {
            out.push(`@${target}`);
        }
    }
    return [...new Set(out)].sort();
}

export async function startFakeServer() {
    const site = await serveStatic(WEB_ROOT);
    const players = new Map(); // token → player
    const conns = new Set();
    const seeks = new Map();
    const games = new Map();
    let n = 0;
    const send = (c, m) => c.ws.send(JSON.stringify(m));
    const lobbyMsg = () => ({ type: 'lobby', seeks: [...seeks.values()].filter((s) => !s.private),
        games: [...games.values()].filter((g) => !g.result).map((g) => ({ game_id: g.id, variant: g.variant, rules: 'house',
            players: Object.fromEntries(g.seats.map((s) => [s.seat, { id: s.p.id, name: s.p.name }])),
            moves: g.moves.length, spectators: spectators(g) })) });
    // Like the real server: the whole lobby once on subscribe (c.seen), then only deltas.
    const pushLobby = () => {
        const now = lobbyMsg();
        for (const c of conns) {
            if (!c.lobby) {
                continue;
            }
            const before = c.seen;
            const seekIds = new Set(now.seeks.map((x) => x.seek_id));
            const gameIds = new Set(now.games.map((x) => x.game_id));
            const had = new Map(before.games.map((x) => [x.game_id, x]));
            before.seeks.filter((x) => !seekIds.has(x.seek_id)).forEach((x) => send(c, { type: 'seek_removed', seek_id: x.seek_id }));
            now.seeks.filter((x) => !before.seeks.some((y) => y.seek_id === x.seek_id)).forEach((x) => send(c, { type: 'seek_added', seek: x }));
            before.games.filter((x) => !gameIds.has(x.game_id)).forEach((x) => send(c, { type: 'game_removed', game_id: x.game_id }));
            now.games.filter((x) => !had.has(x.game_id)).forEach((x) => send(c, { type: 'game_added', game: x }));
            const changed = now.games.filter((x) => had.has(x.game_id) && JSON.stringify(had.get(x.game_id)) !== JSON.stringify(x));
            if (changed.length > 0) {
                send(c, { type: 'game_changed', games: changed });
            }
            c.seen = now;
        }
    };
    const spectators = (g) => [...g.watchers].filter((c) => !g.seats.some((s) => s.p === c.player)).length;
    const snapshot = (g) => ({ type: 'snapshot', game_id: g.id, version: g.events.length, variant: g.variant, rules: 'house',
        players: g.seats.map((s) => ({ seat: s.seat, id: s.p.id, name: s.p.name, online: [...conns].some((c) => c.player === s.p) })),
        start_fen: START[g.variant], fen: 'x', moves: g.moves, to_move: g.toMove, board: g.board, legal: g.legal,
        in_check: false, result: g.result, draw_offer: g.drawOffer, rematch_offer: null, spectators: spectators(g),
        chat: g.chat, match: g.match });
    const emit = (g, event) => {
        g.events.push(event);
        const msg = { type: 'event', game_id: g.id, version: g.events.length, event };
        g.watchers.forEach((c) => conns.has(c) && send(c, msg));
    };
    const startPlay = (g) => {
        g.legal = fakeLegal(g);
    };
    const seatOf = (g, c) => g.seats.find((s) => s.p === c.player)?.seat;
    const mover = (g) => (g.variant === 'sniderman' ? g.match?.[g.toMove] : g.toMove);

    function startedTo(g) {
        for (const s of g.seats) {
            for (const cc of conns) {
                if (cc.player === s.p) {
                    g.watchers.add(cc);
                    send(cc, { type: 'game_started', game_id: g.id, variant: g.variant, you: s.seat });
                }
            }
        }
    }

    function newGame(variant, rounds, ps, quiet = false) {
        const sn = variant === 'sniderman';
        const seatNames = sn ? ['player0', 'player1'] : ['white', 'black'];
        const id = `g_${++n}`;
        const g = { id, variant, seats: ps.map((p, i) => ({ seat: seatNames[i], p })), moves: [], events: [],
                    board: boardFromFen(variant, START[variant]), toMove: sn ? null : 'white', legal: [], result: null,
                    drawOffer: null, chat: [], watchers: new Set(), match: null };
        if (sn) {
            g.match = { rounds: rounds ?? 1, round: 1, phase: 'naming', namer: 'player1', chooser: 'player0', odd: null, even: null,
                        objects: Array.from({ length: 10 }, (_, i) => ({ object: i + 1, text: `fake object ${i + 1}`, available: true })),
                        object: null, score: [0, 0], records: [], winner: null };
        } else {
            startPlay(g);
        }
        games.set(id, g);
        if (!quiet) {
            startedTo(g);
        }
        pushLobby();
        return g;
    }

    function handle(c, m) {
        const g = m.game_id ? games.get(m.game_id) : null;
        const err = (code) => send(c, { type: 'error', code, message: code, id: m.id, game_id: m.game_id });
        switch (m.type) {
        case 'hello': {
            let p = players.get(m.token);
            if (!p) {
                p = { id: `p_${++n}`, name: m.name || `Guest ${n}`, token: `t_${n}` };
                players.set(p.token, p);
            }
            c.player = p;
            send(c, { type: 'welcome', protocol: 1, server: 'fake', player: { id: p.id, name: p.name }, token: p.token, games: [] });
            return;
        }
        case 'set_name': c.player.name = m.name; send(c, { type: 'player', player: { id: c.player.id, name: m.name } }); return;
        case 'lobby_subscribe': c.lobby = true; c.seen = lobbyMsg(); send(c, { ...c.seen, games_total: c.seen.games.length }); return;
        case 'lobby_unsubscribe': c.lobby = false; return;
        case 'seek_create': {
            const s = { seek_id: `s_${++n}`, variant: m.variant, rules: 'house', side: m.side ?? 'random', rounds: m.rounds,
                        private: !!m.private, creator: { id: c.player.id, name: c.player.name }, created_at: 'now', owner: c.player };
            seeks.set(s.seek_id, s);
            send(c, { type: 'seek_created', seek: s });
            pushLobby();
            return;
        }
        case 'seek_cancel': seeks.delete(m.seek_id); send(c, { type: 'seek_cancelled', seek_id: m.seek_id }); pushLobby(); return;
        case 'seek_accept': {
            const sk = seeks.get(m.seek_id);
            if (!sk) {
                return err('no_such_seek');
            }
            seeks.delete(sk.seek_id);
            newGame(sk.variant, sk.rounds, sk.side !== 'black' ? [sk.owner, c.player] : [c.player, sk.owner]);
            return;
        }
        case 'quick_pair': {
            const sk = [...seeks.values()].find((x) => !x.private && x.variant === m.variant && x.owner !== c.player);
            if (sk) {
                return handle(c, { type: 'seek_accept', seek_id: sk.seek_id });
            }
            return handle(c, { ...m, type: 'seek_create' });
        }
        case 'rematch_offer': g.rematch = seatOf(g, c); emit(g, { kind: 'rematch_offered', by: g.rematch }); return;
        case 'rematch_accept': {
            const ng = newGame(g.variant, g.match?.rounds, [g.seats[1].p, g.seats[0].p], true);
            emit(g, { kind: 'rematch_started', new_game_id: ng.id });
            startedTo(ng);
            return;
        }
        case 'watch': {
            if (!g) {
                return err('no_such_game');
            }
            g.watchers.add(c);
            if (m.since === undefined) {
                send(c, snapshot(g));
            } else {
                const snap = snapshot(g);
                send(c, { type: 'events', game_id: g.id, version: g.events.length,
                          events: g.events.slice(m.since).map((event, i) => ({ version: m.since + i + 1, event })),
                          position: { fen: snap.fen, board: snap.board, to_move: snap.to_move, legal: snap.legal,
                                      in_check: snap.in_check } });
            }
            g.watchers.forEach((w) => send(w, { type: 'spectators', game_id: g.id, count: spectators(g) }));
            pushLobby();
            return;
        }
        case 'unwatch': g?.watchers.delete(c); return;
        case 'move': {
            if (!g) {
                return err('no_such_game');
            }
            if (g.result) {
                return err('game_over');
            }
            if (mover(g) !== seatOf(g, c)) {
                return err('not_your_turn');
            }
            if (!g.legal.includes(m.move)) {
                return err('illegal_move');
            }
            const b = g.board;
            const idx = (s) => (Number(s.slice(1)) - 1) * b.files + s.charCodeAt(0) - 97;
            const sqs = m.move.match(/[a-z]\d+/g);
            if (m.move.startsWith('@')) {
                b.squares[idx(sqs[0])] = g.toMove === 'white' ? 'M' : 'm';
                b.reserves[g.toMove === 'white' ? 0 : 1]--;
            } else {
                b.squares[idx(sqs[1])] = b.squares[idx(sqs[0])];
                b.squares[idx(sqs[0])] = '';
            }
            g.moves.push(m.move);
            g.toMove = { white: 'black', black: 'white', odd: 'even', even: 'odd' }[g.toMove];
            g.legal = fakeLegal(g);
            emit(g, { kind: 'move', move: m.move, by: 'x', fen: 'x', board: JSON.parse(JSON.stringify(b)), to_move: g.toMove,
                      legal: g.legal, in_check: false, ply: g.moves.length });
            if (g.moves.length >= (g.variant === 'sniderman' ? 5 : 14) || g.legal.length === 0) {
                const winner = g.variant === 'sniderman' ? 'player0' : 'white';
                if (g.match) {
                    g.match.score = [1, 0];
                    emit(g, { kind: 'round_over', round: 1, winner: 'odd', winner_player: g.match.odd, score: [1, 0] });
                }
                g.result = { winner, reason: g.match ? 'match_won' : 'checkmate' };
                g.legal = [];
                emit(g, { kind: 'game_over', result: g.result });
                pushLobby();
            }
            return;
        }
        case 'resign': g.result = { winner: seatOf(g, c) === 'white' ? 'black' : 'white', reason: 'resignation' };
            emit(g, { kind: 'game_over', result: g.result }); return;
        case 'draw_offer': g.drawOffer = seatOf(g, c); emit(g, { kind: 'draw_offered', by: g.drawOffer }); return;
        case 'draw_decline': g.drawOffer = null; emit(g, { kind: 'draw_declined', by: seatOf(g, c) }); return;
        case 'chat': {
            // Not a room event: the line goes to the readers of its channel.
            const isPlayer = (p) => g.seats.some((s) => s.p === p);
            const player = isPlayer(c.player);
            const line = { channel: player ? 'players' : 'spectators', from: c.player.name, player_id: c.player.id,
                           seat: player ? seatOf(g, c) : null, text: m.text, at: 'now' };
            g.chat.push(line);
            g.watchers.forEach((w) => conns.has(w) && isPlayer(w.player) === player && send(w, { type: 'chat', game_id: g.id, line }));
            return;
        }
        case 'name_object': g.match.object = m.object; g.match.phase = 'choosing';
            emit(g, { kind: 'object_named', object: m.object, text: `fake object ${m.object}` }); return;
        case 'choose_side': {
            const me = seatOf(g, c);
            const other = me === 'player0' ? 'player1' : 'player0';
            g.match.odd = m.side === 'odd' ? me : other;
            g.match.even = m.side === 'odd' ? other : me;
            g.match.phase = 'playing';
            g.toMove = 'odd';
            startPlay(g);
            emit(g, { kind: 'side_chosen', odd: g.match.odd, even: g.match.even, to_move: 'odd', legal: g.legal });
            return;
        }
        case 'ping': send(c, { type: 'pong' }); return;
        default: err('unknown_type');
        }
    }

    return {
        url: site.url,
        log: () => '',
        attach: (context) => context.routeWebSocket(/\/ws$/, (ws) => {
            const c = { ws, player: null, lobby: false };
            conns.add(c);
            ws.onMessage((data) => handle(c, JSON.parse(String(data))));
            ws.onClose(() => conns.delete(c));
        }),
        stop: async () => site.close(),
    };
}
