// Sniderman: the end of a round stays in view. The final position and the decisive capture stay on
// the board, and the round's result shows in the status box (beside the board on a wide screen,
// right under it on a phone), until the viewer goes on or ROUND_END_MS pass — or sooner when the
// next round's play begins (the side is chosen), since the board is then needed.
import { h, sideLabel } from './ui.js';

export const ROUND_END_MS = 10000;

export class RoundEnd {
    // host: where the result goes; onChange(): redraw the page (the board shows the deal again).
    constructor(host, onChange) {
        this.el_ = h('div', { class: 'round-end', role: 'status', 'aria-live': 'polite', hidden: true });
        host.prepend(this.el_);
        this.onChange_ = onChange;
        this.shown_ = null;
        this.timer_ = null;
    }

    // The position and last move to draw while the round's end is shown, or null.
    get shown() {
        return this.shown_;
    }

    // A round just ended: `board` and `capture` are its final position and last move, `moves` its
    // moves (the move list and strip keep them while the end shows); `won` the round's record
    // ({round, winner (seat), side, why}); `score` the match score after it.
    start({ board, capture, won, score, nameOf, moves = [] }) {
        this.shown_ = { board, move: capture, round: won.round, moves: moves.slice() };
        const next = h('button', { type: 'button', class: 'btn primary', 'data-action': 'next-round' }, 'Next round');
        next.addEventListener('click', () => this.finish());
        this.el_.replaceChildren(
            h('strong', {}, `Round ${won.round}: ${nameOf(won.winner)} wins (${sideLabel(won.side)})`),
            capture ? h('span', {}, `The last capture, ${capture}, ended the round.`) : '',
            won.why ? h('span', {}, won.why) : '',
            h('span', { class: 'round-score' }, `Score ${nameOf('player0')} ${score[0]} – ${score[1]} ${nameOf('player1')}`),
            next);
        this.el_.dataset.round = String(won.round);
        this.el_.hidden = false;
        // On a phone the page may have been scrolled (to the match panel): bring the result into view,
        // now and again once the page has redrawn around it (the new layout may move it away).
        const reveal = () => {
            const box = this.el_.getBoundingClientRect();
            if (this.shown_ && window.matchMedia?.('(max-width: 899px)').matches &&
                (box.top < 0 || box.bottom > window.innerHeight)) {
                this.el_.scrollIntoView({ block: 'nearest', behavior: 'instant' });
            }
        };
        reveal();
        requestAnimationFrame(() => requestAnimationFrame(reveal));
        clearTimeout(this.timer_);
        this.timer_ = setTimeout(() => this.finish(), ROUND_END_MS);
    }

    // Back to the live round (the new deal).
    finish() {
        clearTimeout(this.timer_);
        if (!this.shown_) {
            return;
        }
        this.shown_ = null;
        this.el_.hidden = true;
        this.onChange_();
    }

    stop() {
        clearTimeout(this.timer_);
    }
}
