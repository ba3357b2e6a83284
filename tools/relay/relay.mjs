// A bare relay speaking just enough of the Chessence protocol for chessence-load
// (docs/performance.md): hello -> welcome, seeks and games in memory, every move broadcast to the
// room with a fixed "legal" list and acknowledged, no rules, no clocks, no storage. It shows what
// the transport alone costs on this machine: a floor, not a rival.
//   node tools/relay/relay.mjs [port]     (prints "listening on 127.0.0.1:<port>")
import { WebSocketServer } from 'ws';

const port = Number(process.argv[2] ?? 0);
const LEGAL = ['a1a2', 'b1b2', 'c1c2', 'd1d2'];
const seeks = new Map();  // seek_id -> {conn, variant}
const games = new Map();  // game_id -> {seats: [conn, conn], watchers: Set, version, toMove}
const lobby = new Set();
let next = 0;

const send = (ws, message) => ws.readyState === 1 && ws.send(typeof message === 'string' ? message : JSON.stringify(message));
const toRoom = (game, message) => {
    const text = JSON.stringify(message);  // serialised once for every watcher
    for (const ws of game.watchers) {
        send(ws, text);
    }
};
const position = (game) => ({ to_move: game.toMove, legal: game.over ? [] : LEGAL });
const snapshot = (game, id) => ({ type: 'snapshot', game_id: game.id, version: game.version, ...position(game), ...(id !== undefined ? { id } : {}) });

const server = new WebSocketServer({ port, host: '127.0.0.1', path: '/ws', perMessageDeflate: false });
server.on('listening', () => console.log(`listening on 127.0.0.1:${server.address().port}`));
server.on('connection', (ws) => {
    ws.on('message', (data) => {
        let m;
        try {
            m = JSON.parse(data);
        } catch {
            send(ws, { type: 'error', code: 'bad_json', message: 'not JSON' });
            return;
        }
        const game = games.get(m.game_id);
        switch (m.type) {
        case 'hello':
            send(ws, { type: 'welcome', player: { id: `p_${++next}`, name: m.name ?? 'guest' }, token: `t${next}`, games: [] });
            return;
        case 'ping':
            send(ws, { type: 'pong', id: m.id });
            return;
        case 'lobby_subscribe':
            lobby.add(ws);
            send(ws, { type: 'lobby', seeks: [], games: [], games_total: games.size, id: m.id });
            return;
        case 'seek_create': {
            const seek = { seek_id: `s_${++next}`, variant: m.variant, side: m.side ?? 'white' };
            seeks.set(seek.seek_id, { conn: ws, seek });
            send(ws, { type: 'seek_created', seek, id: m.id });
            return;
        }
        case 'seek_accept': {
            const open = seeks.get(m.seek_id);
            if (!open) {
                send(ws, { type: 'error', code: 'no_such_seek', message: 'no such seek', id: m.id });
                return;
            }
            seeks.delete(m.seek_id);
            const g = { id: `g_${++next}`, seats: [open.conn, ws], watchers: new Set([open.conn, ws]), version: 1, toMove: 'white', over: false };
            games.set(g.id, g);
            send(open.conn, { type: 'game_started', game_id: g.id, variant: open.seek.variant, you: 'white' });
            send(ws, { type: 'game_started', game_id: g.id, variant: open.seek.variant, you: 'black' });
            send(open.conn, snapshot(g));
            send(ws, snapshot(g, m.id));
            for (const l of lobby) {
                send(l, { type: 'game_added', game: { game_id: g.id } });
            }
            return;
        }
        case 'watch':
            if (!game) {
                send(ws, { type: 'error', code: 'no_such_game', message: 'no such game', id: m.id });
                return;
            }
            game.watchers.add(ws);
            send(ws, snapshot(game, m.id));
            return;
        case 'move': {
            const seat = game?.seats.indexOf(ws);
            if (!game || seat < 0 || game.over || ['white', 'black'][seat] !== game.toMove) {
                send(ws, { type: 'error', code: 'not_your_turn', message: 'not your turn', id: m.id });
                return;
            }
            const by = game.toMove;
            game.toMove = by === 'white' ? 'black' : 'white';
            game.version += 1;
            toRoom(game, { type: 'event', game_id: game.id, version: game.version, event: { kind: 'move', move: m.move, by, ...position(game) } });
            if (m.id !== undefined) {
                send(ws, { type: 'ack', id: m.id, game_id: game.id, version: game.version });
            }
            return;
        }
        case 'resign':
            if (game && !game.over) {
                game.over = true;
                game.version += 1;
                toRoom(game, { type: 'event', game_id: game.id, version: game.version, event: { kind: 'game_over' } });
                for (const l of lobby) {
                    send(l, { type: 'game_removed', game_id: game.id });
                }
            }
            return;
        default:
            send(ws, { type: 'error', code: 'unknown_type', message: 'not in the relay', id: m.id });
        }
    });
    ws.on('close', () => lobby.delete(ws));
});
