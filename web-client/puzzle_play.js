// One puzzle (/puzzles/<game>/<daily|random|id>): the position from the server's bank, the player
// plays the solver's moves on the board (legal moves from GET /api/legal, as on the analysis board)
// and the bank's line answers each right one. A wrong move can be taken back and tried again;
// "Show solution" plays the line out. The streak is counted in puzzle_streak.js.
import { Board } from './board.js';
import { fetchLegal, fetchPuzzle } from './api.js';
import { describeForBoard } from './explain.js';
import { h, keyRule, missingPage, plural, sideLabel, squareOf, variantLabel } from './ui.js';
import { plyLabel } from './game_status.js';
import { setTitle } from './notify.js';
import { prefs } from './settings.js';
import { excludeIds, markSeen, recordResult, resultOf, streakOf, streakWords } from './puzzle_streak.js';

const REPLY_MS = 550;    // before the line's reply to a right move
const SOLUTION_MS = 800; // between the moves of "Show solution"

// The ways back from a puzzle page that cannot be shown.
const BACK = [{ href: '/puzzles', text: 'All puzzles', action: 'puzzles' },
              { href: '/', text: 'Back to the lobby', action: 'lobby' }];

// What an error from the puzzle API means to a player: a page with a way back. `game` and `which`
// are what the address asked for (shown as text).
export function puzzleErrorPage(result, { game = '', which = '' } = {}) {
    if (result.status === 503 || result.code === 'puzzles_unavailable') {
        return missingPage({ title: 'Puzzles are not available on this server',
                             text: 'This server has no puzzle bank loaded right now. Try again later, or play a game meanwhile.',
                             links: [{ href: '/', text: 'Back to the lobby', action: 'lobby' }] });
    }
    if (result.code === 'unknown_game') {
        return missingPage({ title: 'No such game',
                             text: `There are no puzzles of “${game}”: the games are Chessence, Chesica and Sniderman.`,
                             links: BACK });
    }
    if (result.code === 'no_such_puzzle') {
        return missingPage({ title: 'No such puzzle',
                             text: `There is no ${variantLabel(game)} puzzle “${which}” on this server: the link may be mistyped or cut short.`,
                             links: BACK });
    }
    if (result.code === 'no_puzzles') {
        return missingPage({ title: 'No puzzles yet', text: `This server has no ${variantLabel(game)} puzzles yet.`, links: BACK });
    }
    return missingPage({ title: 'The puzzle could not be loaded', text: result.error || 'The server did not answer.',
                         links: [{ href: location.pathname, text: 'Try again', action: 'retry' }, ...BACK] });
}

// This browser's streak for `game` as a line (`total`: the puzzles the server has, when known).
export function streakLine(game, total = null) {
    const r = streakOf(game);
    return h('p', { class: 'puzzle-streak', 'data-streak': '', 'data-current': r.current, 'data-best': r.best,
                    'data-solved': r.solved.length }, streakWords(r, total));
}

// The game's ply number of the puzzle's first move, for the move labels: from the position
// string's side and move number in Chessence and Chesica ("… b 1 26" → 52), 1 in Sniderman.
function firstPly(puzzle) {
    const m = / ([wb]) \d+ (\d+)$/.exec(puzzle.fen);
    return puzzle.game !== 'sniderman' && m ? Number(m[2]) * 2 - (m[1] === 'w' ? 1 : 0) : 1;
}

export class PuzzleView {
    constructor(app, root, game, which) {
        this.app_ = app;
        this.root_ = root;
        this.game_ = game;
        this.which_ = which;
        this.p_ = null;
        this.played_ = [];   // the moves from the puzzle's position to the one on the board
        this.state_ = 'loading'; // play | reply | wrong | solved | showing | shown
        this.note_ = '';     // what the last result meant for the streak
        this.review_ = null; // after the end: the ply of the line shown, when the player steps through it
        this.drawn_ = 0;
        this.timer_ = null;
    }

    enter() {
        setTitle('Puzzle — Chessence');
        this.root_.append(h('p', { class: 'puzzle-loading', role: 'status' }, 'Loading the puzzle…'));
        this.load_();
    }

    leave() {
        this.left_ = true;
        clearTimeout(this.timer_);
    }

    async load_() {
        const r = await fetchPuzzle(this.game_, this.which_, this.which_ === 'random' ? excludeIds(this.game_) : []);
        if (this.left_) {
            return;
        }
        if (!r.ok) {
            setTitle('Puzzle not found — Chessence');
            this.root_.replaceChildren(puzzleErrorPage(r, { game: this.game_, which: this.which_ }));
            return;
        }
        const p = r.value;
        this.p_ = p;
        markSeen(p.game, p.id);
        if (this.which_ === 'random') {
            // A reload or a shared link shows this puzzle again, not another.
            history.replaceState(null, '', `/puzzles/${encodeURIComponent(p.game)}/${encodeURIComponent(p.id)}`);
        }
        setTitle(`${variantLabel(p.game)} puzzle — Chessence`);
        document.body.dataset.variant = p.game;
        this.build_();
        this.play_();
    }

    build_() {
        const p = this.p_;
        const side = sideLabel(p.toMove);
        const title = this.which_ === 'daily' ? `${variantLabel(p.game)}: puzzle of the day` : `${variantLabel(p.game)} puzzle`;
        const prompt = p.game === 'sniderman'
            ? `Your turn: you are ${side}. Find the only winning capture.`
            : `Your turn: find the only winning move for ${side}.`;
        const head = h('div', { class: 'puzzle-head' },
            h('div', { class: 'row puzzle-links' },
              h('a', { class: 'learn-link', href: '/puzzles', 'data-action': 'puzzles' }, '‹ All puzzles'),
              h('a', { class: 'learn-link', href: `/learn/${p.game}` }, `The rules of ${variantLabel(p.game)}`)),
            h('h1', {}, title, ' ', h('span', { class: 'puzzle-id muted' }, p.date ?? `#${p.id}`)),
            h('p', { class: 'puzzle-prompt', 'data-prompt': '', 'data-side': p.toMove }, prompt));
        if (p.game === 'sniderman') {
            const win = p.toMove === 'even' ? 'You (EVEN) win the round if it is not so when no capture is left.'
                : 'You win the round if it is so when no capture is left.';
            head.append(h('p', { class: 'puzzle-object', 'data-object': p.object ?? '' },
                h('strong', {}, `Object ${p.object}: `), /[.!]$/.test(p.objectText) ? p.objectText : `${p.objectText}.`,
                h('span', { class: 'puzzle-object-win muted' }, win)));
        }
        this.boardHost_ = h('div', { id: 'puzzle-board' });
        this.board_ = new Board(this.boardHost_, { label: 'Puzzle board', onMove: (m) => this.move_(m),
            describe: (sq, code) => describeForBoard(p.game, code) });
        this.status_ = h('div', { class: 'puzzle-status', 'data-status': '', role: 'status', 'aria-live': 'polite' });
        this.actions_ = h('div', { class: 'row puzzle-actions' });
        this.line_ = h('div', { class: 'puzzle-line', 'aria-label': 'The line' });
        this.streak_ = streakLine(p.game);
        this.layout_ = h('div', { class: 'puzzle-layout', 'data-puzzle': p.id, 'data-game': p.game }, head, this.boardHost_,
            h('p', { class: 'puzzle-rule muted' }, keyRule(p.game)),
            h('aside', { class: 'card puzzle-side' }, this.status_, this.actions_, this.line_, this.streak_));
        this.root_.replaceChildren(this.layout_);
    }

    // ---- The position on the board ------------------------------------------------------------

    // Draws the position after `moves` (the board takes moves only when `interactive`); resolves to
    // the position, or null when another drawing came after it or it could not be loaded.
    async draw_(moves, { interactive = false } = {}) {
        const p = this.p_;
        const token = ++this.drawn_;
        const r = await fetchLegal({ variant: p.game, fen: p.fen, moves, rules: p.rules });
        if (this.left_ || token !== this.drawn_) {
            return null;
        }
        if (!r.ok) {
            this.status_.replaceChildren(h('p', {}, `This position could not be loaded: ${r.error}`));
            return null;
        }
        const pos = r.value;
        let checkSquare = null;
        if (pos.inCheck) {
            const i = pos.board.squares.indexOf(pos.toMove === 'black' ? 'k' : 'K');
            checkSquare = i >= 0 ? squareOf(i, pos.board.files) : null;
        }
        this.board_.set({ board: pos.board, flipped: p.toMove === 'black', legal: interactive ? pos.legal : [],
                          lastMove: moves.at(-1) ?? null, checkSquare, red: p.game === 'sniderman', variant: p.game,
                          dropSide: pos.toMove === 'black' ? 1 : 0, powers: pos.powers, showPowers: prefs.on('powers') });
        this.boardHost_.dataset.ply = String(moves.length);
        return pos;
    }

    setState_(state) {
        this.state_ = state;
        this.layout_.dataset.state = state;
        this.render_();
        if (state === 'wrong' || state === 'solved' || state === 'shown') {
            // On a phone the verdict and its buttons are under the board: bring them into view.
            const box = this.actions_.getBoundingClientRect();
            if (box.bottom > window.innerHeight) {
                this.actions_.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
            }
        }
    }

    // ---- Playing --------------------------------------------------------------------------------

    // From the start (or from where the player is, after a wrong move): the player's turn.
    play_() {
        clearTimeout(this.timer_);
        this.review_ = null;
        this.setState_('play');
        this.draw_(this.played_, { interactive: true });
    }

    move_(move) {
        if (this.state_ !== 'play') {
            return;
        }
        const line = this.p_.solution;
        const ply = this.played_.length;
        if (move === line[ply]) {
            this.played_.push(move);
            if (this.played_.length >= line.length) {
                this.finish_(true);
                return;
            }
            this.setState_('reply');
            this.draw_(this.played_);
            this.timer_ = setTimeout(() => {
                this.played_.push(line[this.played_.length]);
                if (this.played_.length >= line.length) {
                    this.finish_(true);
                } else {
                    this.play_();
                }
            }, REPLY_MS);
            return;
        }
        this.wrong_ = move;
        this.note_ = '';
        if (ply === 0) {
            const r = recordResult(this.p_.game, this.p_.id, false);
            this.note_ = r.counted ? 'Your streak is back to 0.' : '';
        }
        this.setState_('wrong');
        this.draw_([...this.played_, move]).then((pos) => {
            // Only the first move is proved the only win: a later move that ends the game at once
            // (the opponent has no legal move, which loses in Chessence and Chesica) wins as well.
            if (pos && ply > 0 && this.p_.game !== 'sniderman' && !pos.legal.length && this.state_ === 'wrong'
                && this.wrong_ === move) {
                this.played_.push(move);
                this.finish_(true);
            }
        });
    }

    // The end: solved (the streak grows, unless this puzzle was finished here before) or shown.
    finish_(solved) {
        clearTimeout(this.timer_);
        if (solved) {
            const before = resultOf(this.p_.game, this.p_.id);
            const r = recordResult(this.p_.game, this.p_.id, true);
            this.note_ = r.counted ? `Your streak: ${r.current}${r.current === r.best && r.current > 1 ? ' (your best)' : ''}.`
                : before === 'failed' ? 'It does not count for the streak: the first try missed.'
                : 'You had solved it before: the streak stays as it was.';
        }
        this.line_.dataset.line = this.played_.join(' ');
        this.setState_(solved ? 'solved' : 'shown');
        this.draw_(this.played_);
    }

    // Plays the bank's line from the puzzle's position, a move at a time; counts as a miss.
    showSolution_() {
        const r = recordResult(this.p_.game, this.p_.id, false);
        this.note_ = r.counted ? 'Showing the solution counts as a miss: your streak is back to 0.' : '';
        clearTimeout(this.timer_);
        this.played_ = [];
        this.setState_('showing');
        this.draw_(this.played_);
        const step = () => {
            this.played_.push(this.p_.solution[this.played_.length]);
            if (this.played_.length >= this.p_.solution.length) {
                this.finish_(false);
                return;
            }
            this.draw_(this.played_);
            this.renderLine_();
            this.timer_ = setTimeout(step, SOLUTION_MS);
        };
        this.timer_ = setTimeout(step, SOLUTION_MS);
    }

    // Again from the puzzle's position (after the end; the streak has counted it already).
    again_() {
        this.played_ = [];
        this.note_ = '';
        this.play_();
    }

    // ---- The side panel -------------------------------------------------------------------------

    render_() {
        const p = this.p_;
        const s = this.state_;
        const side = sideLabel(p.toMove);
        const ply = this.played_.length;
        const text = {
            play: ply === 0 ? 'Make your move on the board.' : `Keep going: the next move for ${side}.`,
            reply: 'Right! Now the reply…',
            wrong: ply === 0 ? 'Not the move: it lets the win slip.'
                : 'Not the move the line goes on with. (Only the first move is the only win; here the line shows one way on.)',
            solved: 'Solved!',
            showing: 'The solution, move by move…',
            shown: 'The solution',
        }[s];
        const parts = [h('p', { class: `puzzle-verdict ${s}` }, text)];
        if ((s === 'solved' || s === 'shown' || s === 'wrong') && this.note_) {
            parts.push(h('p', { class: 'puzzle-note' }, this.note_));
        }
        if ((s === 'solved' || s === 'shown') && p.eval?.mate) {
            parts.push(h('p', { class: 'muted' }, `${side} wins by force in ${plural(p.eval.mate, 'move')}.`));
        }
        this.status_.replaceChildren(...parts);
        const button = (label, action, fn, primary = false) => {
            const b = h('button', { type: 'button', class: primary ? 'btn primary' : 'btn', 'data-action': action }, label);
            b.addEventListener('click', fn);
            return b;
        };
        const next = h('a', { class: 'btn primary', href: `/puzzles/${encodeURIComponent(p.game)}/random`,
                              'data-action': 'next' }, 'Next puzzle');
        const actions = {
            play: [button('Show solution', 'solution', () => this.showSolution_())],
            reply: [],
            wrong: [button('Try again', 'retry', () => this.play_(), true),
                    button('Show solution', 'solution', () => this.showSolution_())],
            solved: [next, button('Play it again', 'again', () => this.again_())],
            showing: [],
            shown: [next, button('Try it yourself', 'again', () => this.again_())],
        }[s];
        this.actions_.replaceChildren(...actions);
        this.actions_.hidden = !actions.length;
        this.renderLine_();
        this.streak_.replaceWith(this.streak_ = streakLine(p.game));
    }

    // The moves played so far; after the end, the whole line, each move a step to review.
    renderLine_() {
        const p = this.p_;
        const done = this.state_ === 'solved' || this.state_ === 'shown';
        const first = firstPly(p);
        const moves = this.played_;
        if (!moves.length) {
            this.line_.replaceChildren();
            return;
        }
        const shown = done ? this.review_ ?? moves.length : moves.length;
        const item = (ply, label) => {
            const current = ply === shown;
            if (!done) {
                return h('span', { class: `mv${current ? ' active' : ''}`, 'data-ply': ply }, label);
            }
            const b = h('button', { type: 'button', class: `mv${current ? ' active' : ''}`, 'data-ply': ply,
                                    'aria-current': current ? 'step' : null }, label);
            b.addEventListener('click', () => this.reviewStep_(ply));
            return b;
        };
        const parts = [h('h2', {}, done ? 'The line' : 'The moves so far')];
        if (done) {
            parts.push(item(0, 'Puzzle position'));
            parts.at(-1).classList.add('start');
        }
        parts.push(h('ol', { class: 'analysis-line', 'data-line': moves.join(' ') },
            ...moves.map((m, i) => h('li', {}, item(i + 1, plyLabel(p.game, first + i, m))))));
        this.line_.replaceChildren(...parts);
    }

    // After the end: the position after `ply` moves of the line.
    reviewStep_(ply) {
        this.review_ = ply;
        this.draw_(this.played_.slice(0, ply));
        this.renderLine_();
    }
}
