// The board: draws a position as SVG and turns clicks, drags and keys into one of the legal moves it
// was handed. It knows squares and notation shapes, never rules, and never talks to the server.
import { describePiece, pieceGraphic, pieceIcon } from './pieces.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const CELL = 100;

export const squareName = (file, rank) => String.fromCharCode(97 + file) + String(rank + 1);

// The squares a move passes through: from, landings… (a drop: just its target).
export function moveSquares(notation) {
    if (notation.startsWith('@')) {
        return { drop: true, squares: [notation.slice(1)] };
    }
    return { drop: false, squares: notation.match(/[a-z]\d+/g) ?? [] };
}

function el(name, attrs = {}, ns = SVG_NS) {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) {
        e.setAttribute(k, String(v));
    }
    return e;
}

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
        if (this.refocus_) {
            this.refocus_ = false;
            this.svg_.querySelector(`[data-square="${this.focus_}"]`)?.focus();
        }
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

    // ---- Input ---------------------------------------------------------------------------------

    squareAt_(e) {
        const pt = this.svgPoint_(e);
        const { files, ranks } = this.state_.board;
        let col = Math.floor(pt.x / CELL);
        let row = Math.floor(pt.y / CELL);
        if (col < 0 || row < 0 || col >= files || row >= ranks) {
            return null;
        }
        const file = this.state_.flipped ? files - 1 - col : col;
        const rank = this.state_.flipped ? row : ranks - 1 - row;
        return this.state_.board.squares[rank * files + file] === '*' ? null : squareName(file, rank);
    }

    svgPoint_(e) {
        const ctm = this.svg_.getScreenCTM();
        if (!ctm) {
            return { x: -1, y: -1 };
        }
        const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
        return { x: p.x, y: p.y };
    }

    onPointerDown_(e) {
        if (!this.state_ || e.button > 0) {
            return;
        }
        const sq = this.squareAt_(e);
        if (!sq) {
            return;
        }
        this.focus_ = sq;
        const code = this.state_.board.squares[this.indexOf_(sq)];
        const canDrag = this.path_.length === 0 && this.movableFrom_().has(sq);
        const wasSelected = this.selected_?.from === sq;
        if (!(this.selected_ && this.destinations_().has(sq))) {
            if (canDrag && !wasSelected) {
                this.activate_(sq);
            }
        }
        this.drag_ = { from: sq, code, start: this.svgPoint_(e), moving: false, canDrag, wasSelected,
                       pointer: e.pointerId };
        if (canDrag) {
            this.svg_.setPointerCapture?.(e.pointerId);
            e.preventDefault();
        }
    }

    onPointerMove_(e) {
        const d = this.drag_;
        if (!d || !d.canDrag) {
            return;
        }
        const p = this.svgPoint_(e);
        if (!d.moving && Math.hypot(p.x - d.start.x, p.y - d.start.y) < 12) {
            return;
        }
        d.moving = true;
        d.x = p.x;
        d.y = p.y;
        this.render_();
    }

    onPointerUp_(e) {
        const d = this.drag_;
        if (!d) {
            return;
        }
        this.endDrag_(this.squareAt_(e));
    }

    endDrag_(target) {
        const d = this.drag_;
        this.drag_ = null;
        if (!d || !this.state_) {
            return;
        }
        if (d.moving) {
            if (target && target !== d.from && this.destinations_().has(target)) {
                this.activate_(target);
            } else {
                this.render_();
            }
        } else if (target === d.from) {
            if (!d.canDrag || d.wasSelected || this.selected_?.from !== d.from) {
                this.activate_(d.from);
            }
        }
    }

    onKey_(e) {
        const sq = e.target?.dataset?.square;
        if (!sq || !this.state_) {
            return;
        }
        const { files, ranks } = this.state_.board;
        let file = sq.charCodeAt(0) - 97;
        let rank = Number(sq.slice(1)) - 1;
        e.stopPropagation();
        const dir = this.state_.flipped ? -1 : 1;
        const steps = { ArrowUp: [0, dir], ArrowDown: [0, -dir], ArrowLeft: [-dir, 0], ArrowRight: [dir, 0] };
        if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            this.refocus_ = true;
            this.activate_(sq);
        } else if (e.key === 'Escape') {
            this.clearSelection_();
            this.refocus_ = true;
            this.render_();
        } else if (steps[e.key]) {
            e.preventDefault();
            const [df, dr] = steps[e.key];
            do {
                file += df;
                rank += dr;
            } while (file >= 0 && rank >= 0 && file < files && rank < ranks
                     && this.state_.board.squares[rank * files + file] === '*');
            if (file >= 0 && rank >= 0 && file < files && rank < ranks) {
                this.focus_ = squareName(file, rank);
                this.refocus_ = true;
                this.render_();
            }
        }
    }
}
