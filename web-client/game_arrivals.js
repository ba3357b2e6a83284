// What arrives for the game page besides the room's record, mixed into GamePage: the players'
// ratings of a rated game (asked of the HTTP API once per player), and the pacing of moves that
// arrive while the last one still slides on the board.
import { fetchRating } from './api.js';

export const gameArrivals = {
    // A rated game's player bars show each player's rating: asked once per player (GET
    // /api/players/<id>); a player the server cannot tell about shows none.
    loadRatings_() {
        const g = this.g_;
        if (!g.rated) {
            return;
        }
        for (const p of g.players) {
            if (!p.id || p.bot || this.ratings_.has(p.id)) {
                continue;
            }
            this.ratings_.set(p.id, null);
            fetchRating(p.id, g.variant).then((r) => {
                if (r.ok && r.value && !this.left_) {
                    this.ratings_.set(p.id, r.value);
                    this.render_();
                }
            });
        }
    },

    // The rating a player bar shows: the one the game started from once its change is known.
    ratingOf_(playerId) {
        const change = (this.ratingChange_ ?? []).find((c) => c.player_id === playerId);
        return change ? change.before : this.ratings_.get(playerId) ?? null;
    },

    // A move that arrives while the last one still slides on the board (the computer's quick
    // reply to the player's own move) waits for the slide to end, and so does everything after it
    // for this game, in order: the player sees their piece land before the answer moves. True
    // when `msg` was kept for later.
    holdForSlide_(msg) {
        if (this.held_) {
            this.held_.push(msg);
            return true;
        }
        const left = msg.type === 'event' && msg.event?.kind === 'move' && this.g_ ? this.board_.slideLeft() : 0;
        if (left <= 0) {
            return false;
        }
        this.held_ = [msg];
        setTimeout(() => {
            const held = this.held_;
            this.held_ = null;
            for (const m of held) {
                if (!this.left_) {
                    this.handle(m);
                }
            }
        }, left + 10);
        return true;
    },
};
