// The board: draws a position as SVG and turns clicks, drags and keys into one of the legal moves it
// was handed. It knows squares and notation shapes, never rules, and never talks to the server.
// When it is not the user's turn it can take one premove: any two squares, starting on one of the
// `premovable` squares the host names; the host decides later whether that became a legal move.
import { describePiece, pieceGraphic, powerBadges, powersText } from './pieces.js';
import { CELL, el, moveSquares, squareName } from './squares.js';
import { inputMethods } from './board_input.js';
import { drawMethods } from './board_draw.js';

export { moveSquares, squareName };

export class Board {
    // onMove(notation): a legal move entered. onPremove({drop, squares}) / onCancelPremove(): the
    // premove set or dropped. onSelect(selection): what is picked up changed ({from} | {drop} | null). describe(square, code): extra words for a square's label (optional).
    // reserveHosts {top, bottom}: where the reserve piles go (default: rows above and below).
    constructor(host, { onMove, onPremove, onCancelPremove, onSelect, describe, label = 'Board',
                        reserveHosts } = {}) {
        this.onMove_ = onMove ?? (() => {});
        this.onSelect_ = onSelect ?? (() => {});
        this.onPremove_ = onPremove ?? null;
        this.onCancelPremove_ = onCancelPremove ?? (() => {});
        this.describe_ = describe ?? (() => '');
        this.host_ = host;
        this.host_.classList.add('board-wrap');
        this.svg_ = el('svg', { class: 'board', role: 'group', 'aria-label': label });
        this.tip_ = document.createElement('div');
        this.tip_.className = 'board-tip';
        this.tip_.hidden = true;
        this.tip_.setAttribute('role', 'tooltip');
        if (reserveHosts) {
            this.top_ = reserveHosts.top;
            this.bottom_ = reserveHosts.bottom;
            this.host_.replaceChildren(this.svg_, this.tip_);
        } else {
            this.top_ = document.createElement('div');
            this.bottom_ = document.createElement('div');
            this.top_.className = 'reserve-row top';
            this.bottom_.className = 'reserve-row bottom';
            this.host_.replaceChildren(this.top_, this.svg_, this.bottom_, this.tip_);
        }
        this.state_ = null;
        this.selected_ = null; // {drop: true} | {from: 'e2'}
        this.path_ = [];
        this.focus_ = null;
        this.drag_ = null;
        this.listen_();
    }

    // state: {board: {files, ranks, squares, reserves}, flipped, legal: [notation], lastMove,
    //         checkSquare, red: bool, dropSide: 0|1|null, variant, powers: {square: "rbn"}|null,
    //         showPowers, premovable: [square]|null, premove: {drop, squares}|null, premoveDrops,
    //         premoveAnyTarget (a premove may end on another premovable square: Sniderman),
    //         arrows: [notation] (drawn as arrows, e.g. the engine's best move)}
    set(state) {
        const prev = this.state_;
        if (!prev?.board || !state.board || prev.board.files !== state.board.files
            || prev.board.ranks !== state.board.ranks) {
            this.focus_ = null;
        }
        const moved = state.lastMove && state.lastMove !== prev?.lastMove && prev?.board
            && prev.board.files === state.board?.files;
        this.animate_ = moved && this.draggedMove_ !== state.lastMove ? moveSquares(state.lastMove) : null;
        this.state_ = { ...state, legal: state.legal ?? [], premovable: state.premovable ?? null };
        this.moves_ = this.state_.legal.map((n) => ({ notation: n, ...moveSquares(n) }));
        if (!this.selectionStillValid_()) {
            this.clearSelection_();
        }
        this.render_();
    }

    // A piece picked up while it was not the user's turn stays selected when it becomes one.
    selectionStillValid_() {
        if (!this.selected_) {
            return true;
        }
        if (this.moves_.length) {
            if (this.selected_.drop) {
                return this.moves_.some((m) => m.drop);
            }
            return this.candidates_().length > 0;
        }
        return this.premoveMode_() && !this.path_.length
            && (this.selected_.drop || this.state_.premovable.includes(this.selected_.from));
    }

    premoveMode_() {
        return !this.moves_.length && !!this.onPremove_ && !!this.state_?.premovable?.length;
    }

    // Selects `squares` (a piece and the landings entered so far) as if the user had clicked them.
    preselect(squares) {
        this.selected_ = { from: squares[0] };
        this.path_ = squares.slice(1);
        if (!this.candidates_().length) {
            this.clearSelection_();
        }
        this.render_();
    }

    clearSelection_() {
        this.selected_ = null;
        this.path_ = [];
    }

    // The moves still possible given the selection and the landings entered so far.
    candidates_() {
        if (!this.selected_) {
            return [];
        }
        if (this.selected_.drop) {
            return this.moves_.filter((m) => m.drop);
        }
        const prefix = [this.selected_.from, ...this.path_];
        return this.moves_.filter((m) => !m.drop && prefix.every((s, i) => m.squares[i] === s));
    }

    destinations_() {
        const depth = this.selected_?.drop ? 0 : this.path_.length + 1;
        return new Set(this.candidates_().map((m) => m.squares[depth]).filter(Boolean));
    }

    movableFrom_() {
        if (this.premoveMode_()) {
            return new Set(this.state_.premovable);
        }
        return new Set(this.moves_.filter((m) => !m.drop).map((m) => m.squares[0]));
    }

    // One user action on a square: select, extend a chain, complete a move (or premove), cancel.
    activate_(sq) {
        if (this.premoveMode_()) {
            return this.activatePremove_(sq);
        }
        const movable = this.movableFrom_();
        if (this.selected_ && this.destinations_().has(sq)) {
            if (this.selected_.drop) {
                return this.complete_(`@${sq}`);
            }
            this.path_.push(sq);
            const prefix = [this.selected_.from, ...this.path_];
            const exact = this.candidates_().find((m) => m.squares.length === prefix.length);
            if (exact) {
                return this.complete_(exact.notation);
            }
            return this.render_();
        }
        if (this.selected_ && !this.selected_.drop && this.selected_.from === sq && !this.path_.length) {
            this.clearSelection_();
        } else if (this.path_.length === 0 && movable.has(sq)) {
            this.selected_ = { from: sq };
        } else {
            this.clearSelection_();
        }
        this.render_();
    }

    activatePremove_(sq) {
        const sel = this.selected_;
        const premovable = this.state_.premovable.includes(sq);
        if (sel && !sel.drop && sel.from !== sq && premovable && !this.state_.premoveAnyTarget) {
            this.selected_ = { from: sq }; // another own piece: pick that one instead
            this.render_();
            return;
        }
        if (sel && (sel.drop || sel.from !== sq)) {
            this.clearSelection_();
            this.render_();
            this.onPremove_(sel.drop ? { drop: true, squares: [sq] } : { drop: false, squares: [sel.from, sq] });
            return;
        }
        this.selected_ = !sel && premovable ? { from: sq } : null;
        this.render_();
    }

    complete_(notation) {
        this.draggedMove_ = this.draggingDone_ ? notation : null;
        this.clearSelection_();
        this.render_();
        this.onMove_(notation);
    }

    selectReserve_() {
        if (this.selected_?.drop) {
            this.clearSelection_();
        } else if (this.path_.length === 0) {
            this.selected_ = { drop: true };
        }
        this.render_();
    }

    // ---- Drawing --------------------------------------------------------------------------------

    toScreen_(file, rank) {
        const { files, ranks } = this.state_.board;
        const flipped = this.state_.flipped;
        return { x: (flipped ? files - 1 - file : file) * CELL,
                 y: (flipped ? rank : ranks - 1 - rank) * CELL };
    }

    // Words for a square: its name, its piece, a man's powers, and what the host adds.
    squareLabel_(name, code) {
        const info = describePiece(code, this.state_.variant);
        if (!info) {
            return `${name}, empty`;
        }
        const powers = this.state_.powers?.[name];
        const extra = this.describe_(name, code);
        return `${name}, ${info.name}${typeof powers === 'string' ? `, ${powersText(powers)}` : ''}${extra ? `, ${extra}` : ''}`;
    }

    render_() {
        const s = this.state_;
        if (!s || !s.board) {
            return;
        }
        const { files, ranks, squares } = s.board;
        this.svg_.setAttribute('viewBox', `0 0 ${files * CELL} ${ranks * CELL}`);
        this.svg_.dataset.files = files;
        this.svg_.dataset.ranks = ranks;
        this.host_.style.setProperty('--ratio', String(files / ranks));
        this.host_.dataset.legal = s.legal.join(' ');
        this.host_.dataset.variant = s.variant ?? '';
        this.host_.dataset.premove = s.premove ? s.premove.squares.join('-') : '';
        this.host_.classList.toggle('interactive', s.legal.length > 0 || this.premoveMode_());
        this.host_.classList.toggle('premoving', this.premoveMode_());
        const last = new Set(s.lastMove ? moveSquares(s.lastMove).squares : []);
        const premove = new Set(s.premove?.squares ?? []);
        const movable = this.movableFrom_();
        const dests = this.destinations_();
        const chain = new Set(this.path_);
        const frag = document.createDocumentFragment();
        const focusCode = this.focus_ ? squares[this.indexOf_(this.focus_)] : undefined;
        if (focusCode === undefined || focusCode === '*') {
            this.focus_ = this.firstFocus_();
        }
        const showPowers = s.showPowers && s.powers;
        for (let rank = 0; rank < ranks; rank++) {
            for (let file = 0; file < files; file++) {
                const code = squares[rank * files + file];
                const name = squareName(file, rank);
                const { x, y } = this.toScreen_(file, rank);
                if (code === '*') {
                    frag.appendChild(el('rect', { x: x + 6, y: y + 6, width: CELL - 12, height: CELL - 12,
                                                  rx: 10, class: 'void', 'aria-hidden': 'true' }));
                    continue;
                }
                const dark = (file + rank) % 2 === 0;
                const g = el('g', { class: `sq ${dark ? 'dark' : 'light'}${s.red && !dark ? ' red' : ''}`,
                                   'data-square': name, role: 'button',
                                   tabindex: name === this.focus_ ? 0 : -1 });
                g.setAttribute('aria-label', this.squareLabel_(name, code));
                if (code) {
                    g.dataset.piece = code;
                }
                const fill = el('rect', { x, y, width: CELL, height: CELL, class: 'sq-fill' });
                g.appendChild(fill);
                if (last.has(name)) {
                    g.appendChild(el('rect', { x, y, width: CELL, height: CELL, class: 'hl-last' }));
                }
                if (premove.has(name)) {
                    g.appendChild(el('rect', { x, y, width: CELL, height: CELL, class: 'hl-premove' }));
                }
                if (this.selected_?.from === name || chain.has(name)) {
                    g.appendChild(el('rect', { x, y, width: CELL, height: CELL, class: 'hl-selected' }));
                }
                if (s.checkSquare === name) {
                    g.appendChild(el('circle', { cx: x + 50, cy: y + 50, r: 50, class: 'hl-check' }));
                }
                if (movable.has(name)) {
                    g.classList.add('movable');
                }
                this.drawCoords_(g, file, rank, x, y);
                const powers = showPowers && code && code.toLowerCase() === 'm' ? s.powers[name] : undefined;
                if (code && !(this.drag_?.moving && this.drag_.from === name)) {
                    g.appendChild(pieceGraphic(code, typeof powers === 'string' ? x - 8 : x, y, 100, s.variant));
                    if (typeof powers === 'string') {
                        g.appendChild(powerBadges(powers, code === 'M' ? 'white' : 'black', x, y));
                    }
                }
                if (dests.has(name)) {
                    g.classList.add('dest');
                    g.appendChild(code ? el('circle', { cx: x + 50, cy: y + 50, r: 46, class: 'hl-capture' })
                                       : el('circle', { cx: x + 50, cy: y + 50, r: 15, class: 'hl-dest' }));
                }
                frag.appendChild(g);
            }
        }
        this.drawArrows_(frag);
        if (this.drag_?.moving) {
            const ghost = pieceGraphic(this.drag_.code, this.drag_.x - 50, this.drag_.y - 50, 100, s.variant);
            ghost.classList.add('dragging');
            frag.appendChild(ghost);
        }
        this.svg_.replaceChildren(frag);
        const picked = this.selected_ ? (this.selected_.drop ? '@' : this.selected_.from) : '';
        if (picked !== this.reportedPick_) {
            this.reportedPick_ = picked;
            this.onSelect_(this.selected_ ? { ...this.selected_ } : null);
        }
        this.renderReserves_();
        this.runAnimation_();
        if (this.refocus_) {
            this.refocus_ = false;
            this.svg_.querySelector(`[data-square="${this.focus_}"]`)?.focus();
        }
    }

    indexOf_(name) {
        const { files } = this.state_.board;
        return (Number(name.slice(1)) - 1) * files + (name.charCodeAt(0) - 97);
    }

    firstFocus_() {
        const movable = [...this.movableFrom_()];
        if (movable.length) {
            return movable[0];
        }
        const { files, squares } = this.state_.board;
        const i = squares.findIndex((c) => c !== '*');
        return squareName(i % files, Math.floor(i / files));
    }
}

Object.assign(Board.prototype, inputMethods, drawMethods);
