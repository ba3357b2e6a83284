// A tournament's top games in progress as small live boards (issue 43): each shown duel's game is
// watched (its snapshot, then its events) and drawn on a board that takes no input (inert: the link
// beside it, which names the players, is what leads to the game).
import { Board } from './board.js';
import { applyEvent, applyEvents, readSnapshot } from './protocol.js';
import { h } from './ui.js';

const MAX_BOARDS = 4;

export class DuelBoards {
    constructor(conn) {
        this.conn_ = conn;
        this.games_ = new Map(); // game id → {host, board, g}
        this.el = h('section', { class: 'card duels', 'aria-labelledby': 'duels-title' });
    }

    // duels: [{gameId, first, second}], best first. Games no longer shown are no longer watched.
    render(duels) {
        const shown = duels.slice(0, MAX_BOARDS);
        const ids = new Set(shown.map((d) => d.gameId));
        for (const id of [...this.games_.keys()].filter((x) => !ids.has(x))) {
            this.conn_.unwatch(id);
            this.games_.delete(id);
        }
        const side = (p) => `${p.name} (#${p.rank}, ${p.rating})`;
        this.el.replaceChildren(h('h2', { id: 'duels-title' }, 'Top games'),
            shown.length === 0 ? h('p', { class: 'empty' }, 'No game in progress.')
                : h('ul', { class: 'duel-list' }, ...shown.map((d) => h('li', { 'data-duel': d.gameId },
                    h('a', { class: 'game-link', href: `/game/${encodeURIComponent(d.gameId)}` },
                      h('span', {}, side(d.first)), h('span', { class: 'meta' }, 'vs'), h('span', {}, side(d.second))),
                    this.entry_(d.gameId).host))));
    }

    entry_(gameId) {
        let e = this.games_.get(gameId);
        if (!e) {
            const host = h('div', { class: 'duel-board', inert: true, 'aria-hidden': 'true' });
            e = { host, board: new Board(host, { label: 'Top game' }), g: null };
            this.games_.set(gameId, e);
            this.conn_.watch(gameId);
        }
        return e;
    }

    // A room's frame for one of the boards (the page passes every frame); true if it was one.
    handle(msg) {
        const e = this.games_.get(msg.game_id);
        if (!e) {
            return false;
        }
        if (msg.type === 'snapshot') {
            e.g = readSnapshot(msg);
            this.conn_.seen(msg.game_id, e.g.version);
        } else if (msg.type === 'events' && e.g) {
            applyEvents(e.g, msg);
        } else if (msg.type === 'event' && e.g) {
            if (msg.version > e.g.version + 1) {
                this.conn_.watch(msg.game_id, e.g.version); // a gap: catch up from the last seen
                return true;
            }
            applyEvent(e.g, msg);
        } else {
            return true;
        }
        if (e.g.board) {
            e.board.set({ board: e.g.board, flipped: false, legal: [], lastMove: e.g.moves.at(-1) ?? null,
                          variant: e.g.variant, red: e.g.variant === 'sniderman', powers: null, showPowers: false });
        }
        e.host.dataset.ply = String(e.g.moves.length);
        return true;
    }

    stop() {
        for (const id of this.games_.keys()) {
            this.conn_.unwatch(id);
        }
        this.games_.clear();
    }
}
