// The lobby's "your games in progress": each unfinished game the player sits in (welcome's list and
// games started since), named by variant and opponent from GET /api/games/<id>. A game that has
// finished leaves the list — nothing stale stays until a reload.
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
                if (r.ok && r.value.status === 'active') {
                    this.info_.set(id, r.value);
                } else {
                    this.forget_(id, r.ok);
                }
                this.onChange_();
            });
        }
    }

    // A public game in progress leaves the lobby's list when it ends: if it is ours, look again.
    sawLobby(games) {
        const live = new Set(games.map((g) => g.id));
        for (const [id, info] of this.info_) {
            if (info && !info.isPrivate && !live.has(id)) {
                this.info_.delete(id);
            }
        }
        this.refresh();
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
