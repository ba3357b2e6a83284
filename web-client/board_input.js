// Pointer (mouse, touch, pen) and keyboard input for the Board, mixed into its prototype: a press
// selects, a release on a destination (after a drag or a second click) plays, arrows move the focus,
// a right-click or Escape cancels; a long press (or resting the mouse) explains a piece.
import { CELL, squareName } from './squares.js';

const LONG_PRESS_MS = 450;
const HOVER_MS = 650;

export const inputMethods = {
    listen_() {
        const svg = this.svg_;
        svg.addEventListener('pointerdown', (e) => this.onPointerDown_(e));
        svg.addEventListener('pointermove', (e) => this.onPointerMove_(e));
        svg.addEventListener('pointerup', (e) => this.onPointerUp_(e));
        svg.addEventListener('pointercancel', () => {
            this.hideTip_();
            this.endDrag_(null);
        });
        svg.addEventListener('pointerleave', () => this.hideTip_());
        svg.addEventListener('keydown', (e) => this.onKey_(e));
        svg.addEventListener('contextmenu', (e) => {
            e.preventDefault();
            this.cancelAll_();
        });
    },

    // Drops the selection and the premove (right-click, Escape).
    cancelAll_() {
        this.drag_ = null;
        this.clearSelection_();
        if (this.state_?.premove) {
            this.onCancelPremove_();
        }
        this.render_();
    },

    squareAt_(e) {
        const pt = this.svgPoint_(e);
        const { files, ranks } = this.state_.board;
        const col = Math.floor(pt.x / CELL);
        const row = Math.floor(pt.y / CELL);
        if (col < 0 || row < 0 || col >= files || row >= ranks) {
            return null;
        }
        const file = this.state_.flipped ? files - 1 - col : col;
        const rank = this.state_.flipped ? row : ranks - 1 - row;
        return this.state_.board.squares[rank * files + file] === '*' ? null : squareName(file, rank);
    },

    svgPoint_(e) {
        const ctm = this.svg_.getScreenCTM();
        if (!ctm) {
            return { x: -1, y: -1 };
        }
        const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
        return { x: p.x, y: p.y };
    },

    onPointerDown_(e) {
        if (!this.state_ || e.button > 0) {
            return;
        }
        this.hideTip_();
        const sq = this.squareAt_(e);
        if (!sq) {
            return;
        }
        if (this.state_.premove) {
            this.onCancelPremove_(); // any press on the board drops the premove (the host redraws)
        }
        this.focus_ = sq;
        const code = this.state_.board.squares[this.indexOf_(sq)];
        const canDrag = this.path_.length === 0 && this.movableFrom_().has(sq);
        const wasSelected = this.selected_?.from === sq;
        if (!(this.selected_ && (this.destinations_().has(sq) || this.premoveMode_()))) {
            if (canDrag && !wasSelected) {
                this.activate_(sq);
            }
        }
        this.drag_ = { from: sq, code, start: this.svgPoint_(e), moving: false, canDrag, wasSelected,
                       pointer: e.pointerId };
        if (e.pointerType !== 'mouse' && code) {
            clearTimeout(this.pressTimer_);
            this.pressTimer_ = setTimeout(() => {
                if (this.drag_ && !this.drag_.moving && this.showTip_(sq)) {
                    this.drag_.explained = true;
                }
            }, LONG_PRESS_MS);
        }
        if (canDrag) {
            this.svg_.setPointerCapture?.(e.pointerId);
            e.preventDefault();
        }
    },

    onPointerMove_(e) {
        const d = this.drag_;
        if (!d) {
            this.hoverTip_(e);
            return;
        }
        if (!d.canDrag) {
            return;
        }
        const p = this.svgPoint_(e);
        if (!d.moving && Math.hypot(p.x - d.start.x, p.y - d.start.y) < 12) {
            return;
        }
        clearTimeout(this.pressTimer_);
        this.hideTip_();
        d.moving = true;
        d.x = p.x;
        d.y = p.y;
        this.render_();
    },

    onPointerUp_(e) {
        clearTimeout(this.pressTimer_);
        if (this.drag_?.explained) {
            this.drag_ = null; // a long press explains; it does not also select or move
            return;
        }
        if (this.drag_) {
            this.endDrag_(this.squareAt_(e));
        }
    },

    // The end of a press: a drag lands (a move if the target is a destination now — the position
    // may have changed while dragging — or a premove), a click selects or plays.
    endDrag_(target) {
        const d = this.drag_;
        this.drag_ = null;
        if (!d || !this.state_) {
            return;
        }
        if (d.moving) {
            if (!target || target === d.from) {
                this.render_();
                return;
            }
            if (!this.selected_ && this.movableFrom_().has(d.from)) {
                this.selected_ = { from: d.from }; // picked up before it was the user's turn
            }
            if (this.premoveMode_() || this.destinations_().has(target)) {
                this.draggingDone_ = true;
                this.activate_(target);
                this.draggingDone_ = false;
            } else {
                this.clearSelection_(); // dropped where it cannot go: put back, nothing picked up
                this.render_();
            }
        } else if (target === d.from) {
            if (!d.canDrag || d.wasSelected || this.selected_?.from !== d.from) {
                this.activate_(d.from);
            }
        }
    },

    // Resting the mouse on a piece shows what it is and what it may do.
    hoverTip_(e) {
        if (e.pointerType !== 'mouse' || !this.state_) {
            return;
        }
        const sq = this.squareAt_(e);
        if (sq === this.hoverSquare_) {
            return;
        }
        this.hoverSquare_ = sq;
        this.hideTip_();
        clearTimeout(this.hoverTimer_);
        if (sq && this.state_.board.squares[this.indexOf_(sq)]) {
            this.hoverTimer_ = setTimeout(() => this.showTip_(sq), HOVER_MS);
        }
    },

    // Shows the explanation of the piece on `sq` next to it; false when there is nothing to say.
    showTip_(sq) {
        const text = this.squareLabel_(sq, this.state_.board.squares[this.indexOf_(sq)]);
        const g = this.svg_.querySelector(`[data-square="${sq}"]`);
        if (!g || !text.includes(',')) {
            return false;
        }
        this.tip_.textContent = text.charAt(0).toUpperCase() + text.slice(1);
        this.tip_.hidden = false;
        this.tip_.dataset.square = sq;
        const box = g.getBoundingClientRect();
        const host = this.host_.getBoundingClientRect();
        const left = Math.min(Math.max(box.left - host.left + box.width / 2, 90), host.width - 90);
        this.tip_.style.left = `${left}px`;
        this.tip_.style.top = `${box.top - host.top}px`;
        return true;
    },

    hideTip_() {
        clearTimeout(this.hoverTimer_);
        this.tip_.hidden = true;
    },

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
            this.refocus_ = true;
            this.cancelAll_();
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
    },
};
