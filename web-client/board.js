// The board: draws a position as SVG and turns clicks, drags and keys into one of the legal moves it
// was handed. It knows squares and notation shapes, never rules, and never talks to the server.
import { describePiece, pieceGraphic, pieceIcon } from './pieces.js';
import { CELL, SVG_NS, el, moveSquares, squareName } from './squares.js';
import { inputMethods } from './board_input.js';

export { moveSquares, squareName };

export class Board {
    // onMove(notation) is called with one of the legal moves once the user has entered it.
    constructor(host, { onMove, label = 'Board' } = {}) {
        this.onMove_ = onMove ?? (() => {});
        this.host_ = host;
        this.host_.classList.add('board-wrap');
        this.top_ = document.createElement('div');
        this.bottom_ = document.createElement('div');
        this.top_.className = 'reserve-row top';
        this.bottom_.className = 'reserve-row bottom';
        this.svg_ = el('svg', { class: 'board', role: 'group', 'aria-label': label });
        this.host_.replaceChildren(this.top_, this.svg_, this.bottom_);
        this.state_ = null;
        this.selected_ = null; // {drop: true} | {from: 'e2'}
        this.path_ = [];
        this.focus_ = null;
        this.drag_ = null;
        this.svg_.addEventListener('pointerdown', (e) => this.onPointerDown_(e));
        this.svg_.addEventListener('pointermove', (e) => this.onPointerMove_(e));
        this.svg_.addEventListener('pointerup', (e) => this.onPointerUp_(e));
        this.svg_.addEventListener('pointercancel', () => this.endDrag_(null));
        this.svg_.addEventListener('keydown', (e) => this.onKey_(e));
    }

    // state: {board: {files, ranks, squares, reserves}, flipped, legal: [notation], lastMove,
    //         checkSquare, red: bool, dropSide: 0|1|null, variant}
    set(state) {
        const sameLegal = this.state_ && state.legal.join() === this.state_.legal.join();
        const prev = this.state_?.board;
        if (!prev || !state.board || prev.files !== state.board.files || prev.ranks !== state.board.ranks) {
            this.focus_ = null;
        }
        const moved = state.lastMove && state.lastMove !== this.state_?.lastMove && prev
            && prev.files === state.board?.files;
        this.animate_ = moved && this.draggedMove_ !== state.lastMove ? moveSquares(state.lastMove) : null;
        this.state_ = state;
        this.moves_ = state.legal.map((n) => ({ notation: n, ...moveSquares(n) }));
        if (!sameLegal) {
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
        return new Set(this.moves_.filter((m) => !m.drop).map((m) => m.squares[0]));
    }

    // One user action on a square: select, extend a chain, complete a move, or cancel.
    activate_(sq) {
        const movable = this.movableFrom_();
        if (this.selected_ && this.destinations_().has(sq)) {
            if (this.selected_.drop) {
                return this.complete_(`@${sq}`);
            }
            this.path_.push(sq);
            const prefix = [this.selected_.from, ...this.path_];
            const left = this.candidates_();
            const exact = left.find((m) => m.squares.length === prefix.length);
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

    complete_(notation) {
        this.draggedMove_ = this.draggingDone_ ? notation : null;
        this.clearSelection_();
        this.lastSent_ = notation;
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
        this.host_.classList.toggle('interactive', s.legal.length > 0);
        const last = new Set(s.lastMove ? moveSquares(s.lastMove).squares : []);
        const movable = this.movableFrom_();
        const dests = this.destinations_();
        const chain = new Set(this.path_);
        const frag = document.createDocumentFragment();
        const pieces = [];
        const focusCode = this.focus_ ? squares[this.indexOf_(this.focus_)] : undefined;
        if (focusCode === undefined || focusCode === '*') {
            this.focus_ = this.firstFocus_();
        }
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
                const info = describePiece(code);
                g.setAttribute('aria-label', `${name}${info ? ', ' + info.name : ', empty'}`);
                if (code) {
                    g.dataset.piece = code;
                }
                g.appendChild(el('rect', { x, y, width: CELL, height: CELL, class: 'sq-fill' }));
                if (last.has(name)) {
                    g.appendChild(el('rect', { x, y, width: CELL, height: CELL, class: 'hl-last' }));
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
                if (code && !(this.drag_?.moving && this.drag_.from === name)) {
                    pieces.push(pieceGraphic(code, x, y));
                    g.appendChild(pieces[pieces.length - 1]);
                }
                if (dests.has(name)) {
                    g.classList.add('dest');
                    g.appendChild(code ? el('circle', { cx: x + 50, cy: y + 50, r: 46, class: 'hl-capture' })
                                       : el('circle', { cx: x + 50, cy: y + 50, r: 15, class: 'hl-dest' }));
                }
                frag.appendChild(g);
            }
        }
        if (this.drag_?.moving) {
            const ghost = pieceGraphic(this.drag_.code, this.drag_.x - 50, this.drag_.y - 50);
            ghost.classList.add('dragging');
            frag.appendChild(ghost);
        }
        this.svg_.replaceChildren(frag);
        this.renderReserves_();
        this.runAnimation_();
        if (this.refocus_) {
            this.refocus_ = false;
            this.svg_.querySelector(`[data-square="${this.focus_}"]`)?.focus();
        }
    }

    // Slides the piece that just arrived along its squares (a drop fades in).
    runAnimation_() {
        const a = this.animate_;
        this.animate_ = null;
        if (!a || !a.squares.length || window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) {
            return;
        }
        const to = a.squares[a.squares.length - 1];
        const piece = this.svg_.querySelector(`[data-square="${to}"] .piece`);
        if (!piece) {
            return;
        }
        const at = (name) => this.toScreen_(name.charCodeAt(0) - 97, Number(name.slice(1)) - 1);
        const end = at(to);
        const frames = a.drop ? [{ opacity: 0 }, { opacity: 1 }] : a.squares.map((sq) => {
            const p = at(sq);
            return { transform: `translate(${p.x - end.x}px, ${p.y - end.y}px)` };
        });
        const wrapper = document.createElementNS(SVG_NS, 'g');
        piece.replaceWith(wrapper);
        wrapper.appendChild(piece);
        this.svg_.appendChild(wrapper.closest('.sq')); // above the other squares while it slides
        wrapper.animate(frames, { duration: 110 + 90 * (a.squares.length - 1), easing: 'ease-out' });
    }

    drawCoords_(g, file, rank, x, y) {
        const { files, ranks } = this.state_.board;
        const flipped = this.state_.flipped;
        if (file === (flipped ? files - 1 : 0)) {
            const t = el('text', { x: x + 5, y: y + 19, class: 'coord' });
            t.textContent = String(rank + 1);
            g.appendChild(t);
        }
        if (rank === (flipped ? ranks - 1 : 0)) {
            const t = el('text', { x: x + CELL - 5, y: y + CELL - 6, class: 'coord file' });
            t.textContent = String.fromCharCode(97 + file);
            g.appendChild(t);
        }
    }

    renderReserves_() {
        const s = this.state_;
        const reserves = s.board.reserves ?? [0, 0];
        const show = s.variant === 'chessence';
        const hasDrops = this.moves_.some((m) => m.drop);
        const rows = s.flipped ? [this.bottom_, this.top_] : [this.top_, this.bottom_];
        for (const [index, row] of [[1, rows[0]], [0, rows[1]]]) {
            row.replaceChildren();
            row.hidden = !show;
            if (!show) {
                continue;
            }
            const color = index === 0 ? 'White' : 'Black';
            const active = hasDrops && s.dropSide === index;
            const pile = document.createElement('button');
            pile.type = 'button';
            pile.className = `reserve ${index === 0 ? 'white' : 'black'}`;
            pile.dataset.reserve = index === 0 ? 'white' : 'black';
            pile.disabled = !active;
            pile.setAttribute('aria-pressed', String(!!(active && this.selected_?.drop)));
            pile.setAttribute('aria-label', `${color} reserve: ${reserves[index]} men${active ? ', select to drop' : ''}`);
            for (let i = 0; i < Math.max(reserves[index], 0); i++) {
                pile.appendChild(pieceIcon(index === 0 ? 'M' : 'm', 34));
            }
            const count = document.createElement('span');
            count.className = 'count';
            count.textContent = `×${reserves[index]}`;
            pile.appendChild(count);
            pile.addEventListener('click', () => this.selectReserve_());
            row.appendChild(pile);
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

Object.assign(Board.prototype, inputMethods);
