// /analysis/<game_id>: the analysis board. Step through a game (a Sniderman match round by round)
// and try other moves from any position; every position and its legal moves come from the server
// (GET /api/legal with the game's start and the moves up to there). One side line at a time: the
// user's own, or the computer's better line. A finished game's computer analysis (its panel:
// analysis_engine.js) marks the judged moves and draws the engine's move as an arrow.
import { Board } from './board.js';
import { EnginePanel, JUDGEMENTS } from './analysis_engine.js';
import { applyEvent, readSnapshot } from './protocol.js';
import { fetchLegal, gamePath, pgnUrl } from './api.js';
import { describeForBoard } from './explain.js';
import { h, missingGame, missingPage, plural, sideLabel, squareOf, variantTitle } from './ui.js';
import { plyLabel } from './game_status.js';
import { setTitle } from './notify.js';
import { hasRecord, resultWords } from './result_dialog.js';
import { prefs } from './settings.js';

export class AnalysisPage {
    constructor(app, root, gameId = '') {
        this.app_ = app;
        this.root_ = root;
        this.gameId_ = gameId;
        this.g_ = null;
        this.round_ = 0;       // Sniderman: which round's line (0-based)
        this.ply_ = 0;         // position shown: after this many moves of the main line…
        this.side_ = null;     // …or of the side line {base, moves} (ply_ then counts into it)
        this.onSide_ = false;
        this.keyHandler_ = (e) => this.onKey_(e);
    }

    enter() {
        setTitle('Analysis — Chessence');
        if (!this.gameId_) {
            this.showWhich_();
            return;
        }
        this.boardHost_ = h('div', { id: 'analysis-board' });
        this.board_ = new Board(this.boardHost_, { label: 'Analysis board', onMove: (m) => this.tryMove_(m),
            describe: (sq, code) => describeForBoard(this.g_?.variant, code) });
        this.info_ = h('p', { class: 'analysis-info', role: 'status', 'aria-live': 'polite' }, 'Loading the game…');
        this.list_ = h('div', { class: 'card analysis-moves', 'aria-label': 'Moves' });
        this.head_ = h('div', { class: 'analysis-head' });
        const engineHost = h('section', { class: 'card engine', 'aria-labelledby': 'engine-title' });
        this.engine_ = new EnginePanel(engineHost, {
            gameId: this.gameId_, onJump: (ply) => this.go_(false, ply),
            onLine: (base, moves) => this.showLine_(base, moves), onChange: () => this.g_ && this.show_(),
        });
        this.root_.append(h('div', { class: 'analysis-layout' }, this.boardHost_,
            h('aside', { class: 'analysis-side' }, this.head_, this.info_, engineHost, this.list_)));
        this.app_.conn.setKey(this.gameId_, new URLSearchParams(location.search).get('key'));
        this.app_.conn.watch(this.gameId_);
        document.addEventListener('keydown', this.keyHandler_);
    }

    // /analysis without a game: what the board is for and where its games come from.
    showWhich_() {
        this.left_ = true;
        const me = this.app_.me.id;
        this.root_.replaceChildren(missingPage({
            title: 'Which game?',
            text: 'The analysis board steps through a game and tries other moves. Open one from a game\'s page '
                + '(after the game, “Analyse with the computer”) or from a player\'s list of games.',
            links: [{ href: '/', text: 'Back to the lobby', action: 'lobby' },
                    ...(me ? [{ href: `/player/${encodeURIComponent(me)}`, text: 'Your games', action: 'my-games' }] : [])],
        }));
    }

    leave() {
        if (!this.gameId_) {
            return;
        }
        this.left_ = true;
        this.engine_.stop();
        this.app_.conn.unwatch(this.gameId_);
        document.removeEventListener('keydown', this.keyHandler_);
    }

    onError(err) {
        if (err.code === 'no_such_game' && (!err.gameId || err.gameId === this.gameId_)) {
            setTitle('No such game — Chessence');
            this.root_.replaceChildren(missingGame(this.gameId_));
            return true;
        }
        return false;
    }

    handle(msg) {
        if (!this.gameId_ || msg.game_id !== this.gameId_) {
            return;
        }
        if (msg.type === 'snapshot') {
            const first = !this.g_;
            this.g_ = readSnapshot(msg);
            if (first) {
                const lines = this.lines_();
                this.round_ = lines.length - 1;
                this.ply_ = lines.at(-1)?.moves.length ?? 0;
            }
            this.engine_.setGame(this.g_);
            this.show_();
        } else if (msg.type === 'event' && this.g_) {
            const kind = applyEvent(this.g_, msg);
            if (kind === 'move') {
                this.renderList_();
            } else if (kind === 'game_over') {
                this.engine_.setGame(this.g_);
                this.show_();
            }
        }
    }

    // The main lines: one per Sniderman round (its deal and moves), else the game itself.
    lines_() {
        const g = this.g_;
        if (g.variant === 'sniderman' && g.match) {
            const lines = g.match.records.map((r) => ({ start: r.start, moves: r.moves }));
            return lines.length ? lines : [{ start: g.startFen, moves: g.moves }];
        }
        return [{ start: g.startFen, moves: g.moves }];
    }

    // The moves from the line's start to the position shown.
    movesShown_() {
        const main = this.lines_()[this.round_].moves;
        if (this.onSide_ && this.side_) {
            return [...main.slice(0, this.side_.base), ...this.side_.moves.slice(0, this.ply_)];
        }
        return main.slice(0, this.ply_);
    }

    // What the board shows, for the computer's panel.
    view_() {
        return { line: this.round_, ply: this.ply_, onSide: this.onSide_ && !!this.side_, side: this.side_ };
    }

    async show_() {
        const g = this.g_;
        const line = this.lines_()[this.round_];
        const moves = this.movesShown_();
        this.engine_.show(this.view_());
        setTitle(`Analysis · ${variantTitle(g.variant)}: ${g.players.map((p) => p.name).join(' vs ')}`);
        const r = await fetchLegal({ variant: g.variant, fen: line.start, moves, rules: g.rules });
        if (this.left_ || moves.join() !== this.movesShown_().join()) {
            return; // the user stepped on meanwhile
        }
        if (!r.ok) {
            this.info_.textContent = `This position could not be loaded: ${r.error}`;
            return;
        }
        const p = r.value;
        let checkSquare = null;
        if (p.inCheck) {
            const i = p.board.squares.indexOf(p.toMove === 'black' ? 'k' : 'K');
            checkSquare = i >= 0 ? squareOf(i, p.board.files) : null;
        }
        const seat = g.players.find((x) => x.id === this.app_.me.id)?.seat;
        this.board_.set({ board: p.board, flipped: seat === 'black' || seat === 'player1', legal: p.legal,
                          lastMove: moves.at(-1) ?? null, checkSquare, red: g.variant === 'sniderman',
                          variant: g.variant, dropSide: p.toMove === 'black' ? 1 : 0, powers: p.powers,
                          showPowers: prefs.on('powers'), arrows: this.engine_.arrows(this.view_()) });
        this.boardHost_.dataset.ply = String(moves.length);
        this.boardHost_.dataset.line = this.onSide_ ? 'side' : 'main';
        this.info_.textContent = !p.legal.length
            ? (g.variant === 'sniderman' ? 'No capture is left: the round is over here.'
                                         : `${this.sideName_(p, moves)} has no legal move here.`)
            : `${sideLabel(p.toMove)} to move${p.inCheck ? ', in check' : ''}: ${plural(p.legal.length, 'legal move')}. `
              + 'Play any of them on the board to try a line of your own.';
        this.renderList_();
    }

    // The side to move in position `p` (reached by `moves`) with its player: "White (Ann)". A
    // finished position may come without a side to move: its position string, else the count of
    // moves from the line's start, says whose turn it would be.
    sideName_(p, moves) {
        const fenSide = { w: 'white', b: 'black' }[String(p.fen ?? '').split(' ')[1]];
        const start = { w: 'white', b: 'black' }[String(this.lines_()[this.round_].start ?? '').split(' ')[1]] ?? 'white';
        const other = start === 'white' ? 'black' : 'white';
        const side = p.toMove ?? fenSide ?? (moves.length % 2 ? other : start);
        const name = this.g_.players.find((x) => x.seat === side)?.name;
        return name ? `${sideLabel(side)} (${name})` : sideLabel(side);
    }

    // A move played on the board: along the game if it is the game's next move, else a side line.
    tryMove_(move) {
        const main = this.lines_()[this.round_].moves;
        if (!this.onSide_ && main[this.ply_] === move) {
            this.ply_++;
        } else if (this.onSide_ && this.side_.moves[this.ply_] === move) {
            this.ply_++; // along the side line
        } else if (this.onSide_) {
            this.side_.moves = [...this.side_.moves.slice(0, this.ply_), move];
            this.side_.engine = false; // now the user's line
            this.ply_++;
        } else {
            this.side_ = { base: this.ply_, moves: [move] };
            this.onSide_ = true;
            this.ply_ = 1;
        }
        this.show_();
    }

    // The computer's better line: `moves` played after `base` moves of the game, shown after its first.
    showLine_(base, moves) {
        this.side_ = { base, moves: moves.slice(), engine: true };
        this.onSide_ = true;
        this.ply_ = 1;
        // On a phone the list is under the panel: bring the line into view (beside the board, the
        // window stays where it is, the board whole).
        this.show_().then(() => window.matchMedia('(max-width: 899px)').matches
            && this.list_.querySelector('.analysis-line.side')?.scrollIntoView({ block: 'nearest' }));
    }

    go_(onSide, ply) {
        this.onSide_ = onSide && !!this.side_;
        const max = this.onSide_ ? this.side_.moves.length : this.lines_()[this.round_].moves.length;
        this.ply_ = Math.max(0, Math.min(ply, max));
        if (this.onSide_ && this.ply_ === 0) {
            this.onSide_ = false;
            this.ply_ = this.side_.base;
        }
        this.show_();
    }

    renderList_() {
        const g = this.g_;
        const main = this.lines_()[this.round_].moves;
        // A move's button; a judged move of the game carries its mark (?!, ?, ??).
        const cell = (onSide, ply, move, label) => {
            const current = this.onSide_ === onSide && this.ply_ === ply;
            const judged = onSide ? null : this.engine_.judgementAt(this.round_, ply);
            const j = JUDGEMENTS[judged];
            const b = h('button', { type: 'button', class: `mv${current ? ' active' : ''}${judged ? ` judged ${judged}` : ''}`,
                                    'data-ply': ply, 'data-line': onSide ? 'side' : 'main', 'data-judgement': judged,
                                    'aria-current': current ? 'step' : null, title: j?.word ?? null },
                        label, j ? [h('span', { class: `judgement ${judged}`, 'aria-hidden': 'true' }, j.mark),
                                    h('span', { class: 'visually-hidden' }, ` (${j.word.toLowerCase()})`)] : '');
            b.addEventListener('click', () => this.go_(onSide, ply));
            return b;
        };
        const mainList = h('ol', { class: 'analysis-line', 'aria-label': 'The game' },
            ...main.map((m, i) => h('li', {}, cell(false, i + 1, m, plyLabel(g.variant, i + 1, m)))));
        const parts = [];
        if (g.variant === 'sniderman' && this.lines_().length > 1) {
            parts.push(h('div', { class: 'row rounds-pick', role: 'group', 'aria-label': 'Rounds' },
                ...this.lines_().map((_, i) => {
                    const b = h('button', { type: 'button', class: `btn${i === this.round_ ? ' primary' : ''}`,
                                            'data-round': i + 1, 'aria-pressed': String(i === this.round_) }, `Round ${i + 1}`);
                    b.addEventListener('click', () => {
                        this.round_ = i;
                        this.side_ = null;
                        this.go_(false, 0);
                    });
                    return b;
                })));
        }
        const nav = h('div', { class: 'review-nav', role: 'group', 'aria-label': 'Step through' });
        const step = (label, text, fn) => {
            const b = h('button', { type: 'button', class: 'btn nav-btn', 'aria-label': label, title: label,
                                    'data-nav': label.split(' ')[0].toLowerCase() }, text);
            b.addEventListener('click', fn);
            nav.append(b);
        };
        step('First position', '«', () => this.go_(false, 0));
        step('Previous move', '‹', () => this.step_(-1));
        step('Next move', '›', () => this.step_(1));
        step('Last move', '»', () => this.go_(this.onSide_, Infinity));
        parts.push(nav, h('button', { type: 'button', class: `mv start${!this.onSide_ && this.ply_ === 0 ? ' active' : ''}`,
                                      'data-ply': 0, 'data-line': 'main' }, 'Start position'), mainList);
        parts.at(-2).addEventListener('click', () => this.go_(false, 0));
        if (this.side_) {
            // Not "Back to the game": the head's link leads back to the game page.
            const back = h('button', { type: 'button', class: 'btn', 'data-action': 'back-to-game' }, 'Return to the game\'s moves');
            back.addEventListener('click', () => {
                const base = this.side_.base;
                this.side_ = null;
                this.go_(false, base);
            });
            const base = this.side_.base;
            const engine = this.side_.engine;
            const title = engine ? `The computer's better line instead of ${plyLabel(g.variant, base + 1, main[base])}`
                : base ? `Your line after ${plyLabel(g.variant, base, main[base - 1])}` : 'Your line from the start';
            parts.push(h('h3', {}, title),
                h('ol', { class: 'analysis-line side', 'aria-label': engine ? 'The computer\'s line' : 'Your line',
                          'data-source': engine ? 'engine' : 'user' },
                  ...this.side_.moves.map((m, i) => h('li', {}, cell(true, i + 1, m, plyLabel(g.variant, this.side_.base + i + 1, m))))),
                back);
        }
        this.list_.replaceChildren(...parts);
        const nameOf = (seat) => g.players.find((p) => p.seat === seat)?.name ?? seat;
        const result = g.result ? resultWords(g, nameOf, null) : null;
        this.head_.replaceChildren(h('h1', {}, `${variantTitle(g.variant)}: ${g.players.map((p) => p.name).join(' vs ')}`),
            h('p', { class: 'analysis-result', 'data-result': g.result ? g.result.winner ?? 'draw' : '' },
              result ? [h('strong', {}, result.headline), ' — ', result.lines.join(' ')] : 'The game is still being played.'),
            h('div', { class: 'row' }, h('a', { class: 'btn', href: gamePath(this.gameId_) }, 'Back to the game page'),
              // An aborted game without a move has nothing to download.
              hasRecord(g) ? h('a', { class: 'btn', href: pgnUrl(this.gameId_), download: `${g.variant}-${this.gameId_}.pgn`,
                                     'data-action': 'pgn' }, 'Download PGN') : ''));
    }

    step_(delta) {
        if (this.onSide_ || !this.side_ || delta < 0 || this.ply_ !== this.side_.base) {
            this.go_(this.onSide_, this.ply_ + delta);
        } else {
            this.go_(false, this.ply_ + delta);
        }
    }

    onKey_(e) {
        if (!this.g_ || e.target.closest?.('input, textarea, select, .board')) {
            return;
        }
        const keys = { ArrowLeft: () => this.step_(-1), ArrowRight: () => this.step_(1),
                       Home: () => this.go_(false, 0), End: () => this.go_(this.onSide_, Infinity) };
        if (keys[e.key]) {
            e.preventDefault();
            keys[e.key]();
        }
    }
}
