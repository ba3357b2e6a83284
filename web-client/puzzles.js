// /puzzles: the puzzle chooser (each game with how many puzzles the server has, the puzzle of the
// day and a random one, and this browser's streak), and /puzzles/<game>/<daily|random|id>: one
// puzzle to solve (puzzle_play.js). The puzzles come from GET /api/puzzles… (docs/puzzles.md).
import { fetchPuzzleCounts } from './api.js';
import { VARIANTS } from './protocol.js';
import { h, plural, variantLabel } from './ui.js';
import { setTitle } from './notify.js';
import { PuzzleView, puzzleErrorPage, streakLine } from './puzzle_play.js';

const ABOUT = {
    chessence: 'Powers borrowed from friends, drops from the reserve: a forced win or a decisive gain.',
    chesica: 'Compulsory jumps and long chains: one move wins, every other lets the win slip.',
    sniderman: 'A deal, an object and ODD to capture: exactly one first capture wins the round.',
};

export class PuzzlesPage {
    constructor(app, root, game = '', which = '') {
        this.app_ = app;
        this.root_ = root;
        this.game_ = game;
        this.which_ = which;
        this.view_ = game && which ? new PuzzleView(app, root, game, which) : null;
    }

    enter() {
        if (this.view_) {
            this.view_.enter();
            return;
        }
        setTitle('Puzzles — Chessence');
        const cards = VARIANTS.map((v) => this.card_(v));
        this.root_.append(h('section', { class: 'puzzles', 'aria-labelledby': 'puzzles-title' },
            h('h1', { id: 'puzzles-title' }, 'Puzzles'),
            h('p', { class: 'intro-lead' }, 'In each position exactly one move wins. Find it, then play the line on '
              + 'against the replies. A new puzzle of the day every day (UTC); your streak is kept in this browser.'),
            h('ul', { class: 'puzzle-games' }, ...cards)));
        this.load_();
        if (VARIANTS.includes(this.game_)) {
            this.root_.querySelector(`[data-puzzle-game="${this.game_}"] a`)?.focus();
        }
    }

    leave() {
        this.left_ = true;
        this.view_?.leave();
    }

    card_(v) {
        return h('li', { class: 'card puzzle-game', 'data-puzzle-game': v },
            h('h2', {}, variantLabel(v)),
            h('p', { class: 'puzzle-count', 'data-count': '' }, 'Counting the puzzles…'),
            h('p', { class: 'puzzle-about' }, ABOUT[v]),
            streakLine(v),
            h('div', { class: 'row' },
              h('a', { class: 'btn primary', href: `/puzzles/${v}/daily`, 'data-action': 'daily' }, 'Puzzle of the day'),
              h('a', { class: 'btn', href: `/puzzles/${v}/random`, 'data-action': 'random' }, 'Random puzzle')),
            h('a', { class: 'learn-link', href: `/learn/${v}` }, `The rules of ${variantLabel(v)}`));
    }

    async load_() {
        const r = await fetchPuzzleCounts();
        if (this.left_) {
            return;
        }
        if (!r.ok) {
            if (r.status === 503 || r.code === 'puzzles_unavailable') {
                this.root_.replaceChildren(puzzleErrorPage(r));
            } else {
                for (const el of this.root_.querySelectorAll('[data-count]')) {
                    el.textContent = `The puzzles could not be counted: ${r.error}`;
                }
            }
            return;
        }
        for (const v of VARIANTS) {
            const card = this.root_.querySelector(`[data-puzzle-game="${v}"]`);
            const n = r.value[v];
            card.dataset.total = String(n);
            card.querySelector('[data-count]').textContent = n ? plural(n, 'puzzle') : 'No puzzles yet';
            card.querySelector('[data-streak]').replaceWith(streakLine(v, n));
            if (!n) {
                for (const a of card.querySelectorAll('.row a')) {
                    a.replaceWith(h('button', { type: 'button', class: a.className, disabled: true }, a.textContent));
                }
            }
        }
    }
}
