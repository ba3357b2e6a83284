// Pointer (mouse, touch, pen) and keyboard input for the Board, mixed into its prototype: a press
// selects, a release on a destination (after a drag or a second click) plays, arrows move the focus.
import { CELL, squareName } from './squares.js';

export const inputMethods = {
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
    },

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
    },

    onPointerUp_(e) {
        const d = this.drag_;
        if (!d) {
            return;
        }
        this.endDrag_(this.squareAt_(e));
    },

    endDrag_(target) {
        const d = this.drag_;
        this.drag_ = null;
        if (!d || !this.state_) {
            return;
        }
        if (d.moving) {
            if (target && target !== d.from && this.destinations_().has(target)) {
                this.draggingDone_ = true;
                this.activate_(target);
                this.draggingDone_ = false;
            } else {
                this.render_();
            }
        } else if (target === d.from) {
            if (!d.canDrag || d.wasSelected || this.selected_?.from !== d.from) {
                this.activate_(d.from);
            }
        }
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
    },
};
