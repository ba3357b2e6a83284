// The game page's tournament strip (issue 43), shown for a game of an arena: the way back to the
// tournament, Berserk for a player before their own first move (when the arena allows it), Pause;
// and once the game is over the way back, which a player of the game takes by themselves after
// RETURN_MS (with a sound) unless they go elsewhere first.
import { buildTournament } from './protocol_tournament.js';
import { seatIndex } from './protocol.js';
import { h } from './ui.js';
import { play } from './sound.js';

const RETURN_MS = 3000;

// Whether `seat` has made their first move (the server decides; this only hides the button).
function movedYet(g, seat) {
    if (g.variant === 'sniderman') {
        const m = g.match;
        return (m?.round ?? 1) > 1 || g.moves.length >= (m?.odd === seat ? 1 : 2);
    }
    return g.moves.length >= (seat === 'white' ? 1 : 2);
}

export class TournamentStrip {
    // act: {send(msg) → bool, navigate(path)}
    constructor(act) {
        this.act_ = act;
        this.el = h('section', { class: 'tournament-strip', 'aria-label': 'Tournament', hidden: true });
        this.timer_ = null;
        this.paused_ = false;   // a pause was sent from this page
    }

    // view: {g, seat (the viewer's, or null)}
    render({ g, seat }) {
        this.g_ = g;
        this.el.hidden = !g.tournamentId;
        if (!g.tournamentId) {
            return;
        }
        const path = `/tournament/${encodeURIComponent(g.tournamentId)}`;
        const parts = [];
        if (g.result) {
            parts.push(h('a', { class: 'btn primary', href: path, 'data-action': 'back-to-tournament' },
                         'Back to the tournament'));
            if (this.timer_) {
                parts.push(h('span', { class: 'form-note', 'data-returning': '' }, 'Going back in a moment…'));
            }
        } else {
            parts.push(h('span', { class: 'strip-title' }, 'Arena game'), h('a', { href: path }, 'The tournament'));
            if (seat && g.berserkable && !g.berserk[seatIndex(seat)] && !movedYet(g, seat)) {
                const b = h('button', { type: 'button', class: 'btn danger', 'data-action': 'berserk',
                                        title: 'Halve your time and lose your increment: a win of 14 plies or more scores a point more' },
                            'Berserk');
                b.addEventListener('click', () => this.act_.send(buildTournament.berserk(g.gameId)));
                parts.push(b);
            }
        }
        if (seat && this.paused_) {
            parts.push(h('span', { class: 'form-note', 'data-paused': '' }, 'Paused: resume on the tournament page.'));
        } else if (seat) {
            const pause = h('button', { type: 'button', class: 'btn', 'data-action': 'tournament-pause',
                                        title: 'Not paired again until you resume on the tournament page' },
                            g.result ? 'Pause' : 'Pause after this game');
            pause.addEventListener('click', () => {
                this.paused_ = this.act_.send(buildTournament.pause(g.tournamentId));
                this.render({ g, seat });
            });
            parts.push(pause);
        }
        this.el.replaceChildren(...parts);
    }

    // The game just ended for one of its players: back to the tournament page soon.
    returnSoon() {
        const id = this.g_?.tournamentId;
        if (!id || this.timer_) {
            return;
        }
        this.timer_ = setTimeout(() => {
            play('notify');
            this.act_.navigate(`/tournament/${encodeURIComponent(id)}`);
        }, RETURN_MS);
    }

    stop() {
        clearTimeout(this.timer_);
        this.timer_ = null;
    }
}
