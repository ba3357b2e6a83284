// The lobby's "your games in progress": each unfinished game the player sits in (welcome's list and
// games started since), named by variant and opponent from GET /api/games/<id>. A game that has
// finished leaves the list (the lobby's `game_removed`, or the look-up) — nothing stale stays until a
// reload.
import { fetchGame } from './api.js';
import { h, plural, variantLabel } from './ui.js';

export class MyGames {
    // onChange(): the rows changed (the lobby redraws).
    constructor(app, onChange) {
        this.app_ = app;
        this.onChange_ = onChange;
        this.info_ = new Map(); // game id → readGameInfo result
        this.refresh();
    }

    // Looks up every game of app.myGames not known yet, and drops the finished ones.
    refresh() {
        for (const id of this.app_.myGames) {
            if (this.info_.has(id)) {
                continue;
            }
            this.info_.set(id, null);
            fetchGame(id).then((r) => {
                if (!this.info_.has(id)) {
                    return; // ended (gameEnded) while it was being looked up
                }
                if (r.ok && r.value.status === 'active') {
                    this.info_.set(id, r.value);
                } else {
                    this.forget_(id, r.ok);
                }
                this.onChange_();
            });
        }
    }

    // The lobby says a public game ended (`game_removed`): if it is ours, it leaves the list. Only
    // that says so — a page of the lobby does not list every game in progress.
    gameEnded(id) {
        if (!this.app_.myGames.includes(id) && !this.info_.has(id)) {
            return;
        }
        this.forget_(id, true);
        this.onChange_();
    }

    forget_(id, known) {
        this.info_.delete(id);
        if (known) {
            this.app_.myGames = this.app_.myGames.filter((x) => x !== id);
        }
    }

    // One row per unfinished game whose details arrived.
    rows() {
        const me = this.app_.me.id;
        return this.app_.myGames.map((id) => this.info_.get(id)).filter(Boolean).map((g) => {
            const opponent = g.players.find((p) => p.id !== me)?.name ?? 'an opponent';
            return h('div', { class: 'mine-row game-row', 'data-my-game': g.id },
                h('span', {}, h('b', {}, variantLabel(g.variant)), ` against ${opponent} · ${plural(g.moves, 'move')}`),
                h('a', { class: 'btn primary', href: `/game/${encodeURIComponent(g.id)}` }, 'Resume'));
        });
    }
}
