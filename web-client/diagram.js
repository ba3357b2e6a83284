// A small live board for the rules pages: a position from the server (GET /api/legal), where the
// reader clicks a piece to see where it may go and why, may play moves for both sides, and can
// start again. The moves always come from the server; the words come from the page.
import { Board } from './board.js';
import { fetchLegal } from './api.js';
import { describePiece, powersText, powersWhy } from './pieces.js';
import { describeForBoard } from './explain.js';
import { h, plural, sideLabel, squareOf } from './ui.js';
import { moveSquares } from './squares.js';

export class Diagram {
    // spec: {variant, fen, moves?, caption, flipped?}
    constructor(spec) {
        this.spec_ = spec;
        this.played_ = [];
        this.pos_ = null;
        this.host_ = h('div', { class: 'diagram-board' });
        this.info_ = h('p', { class: 'diagram-info', 'aria-live': 'polite' }, 'Loading the position…');
        const reset = h('button', { type: 'button', class: 'btn', 'data-action': 'reset' }, 'Start again');
        reset.addEventListener('click', () => {
            this.played_ = [];
            this.load_();
        });
        this.el = h('figure', { class: 'diagram', 'data-variant': spec.variant, 'data-fen': spec.fen ?? '' },
            this.host_, h('figcaption', {}, h('p', { class: 'diagram-caption' }, spec.caption), this.info_,
                          h('div', { class: 'row' }, reset)));
        this.board_ = new Board(this.host_, {
            label: `Diagram: ${spec.caption}`,
            onMove: (m) => this.play_(m),
            onSelect: (sel) => this.explain_(sel),
            describe: (sq, code) => describeForBoard(spec.variant, code),
        });
        this.load_();
    }

    async load_() {
        const spec = this.spec_;
        const r = await fetchLegal({ variant: spec.variant, fen: spec.fen ?? '',
                                     moves: [...(spec.moves ?? []), ...this.played_] });
        if (!r.ok) {
            this.info_.textContent = `This diagram could not be loaded: ${r.error}`;
            return;
        }
        this.pos_ = r.value;
        this.board_.set({ board: r.value.board, flipped: !!spec.flipped, legal: r.value.legal,
                          lastMove: this.played_.at(-1) ?? null, checkSquare: this.checkSquare_(),
                          red: spec.variant === 'sniderman', variant: spec.variant,
                          dropSide: r.value.toMove === 'black' ? 1 : 0, powers: r.value.powers, showPowers: true });
        this.host_.dataset.ply = String(this.played_.length);
        this.explain_(null);
    }

    play_(move) {
        this.played_.push(move);
        this.load_();
    }

    checkSquare_() {
        const p = this.pos_;
        if (!p?.inCheck) {
            return null;
        }
        const i = p.board.squares.indexOf(p.toMove === 'black' ? 'k' : 'K');
        return i >= 0 ? squareOf(i, p.board.files) : null;
    }

    // What the position or the piece picked up means, under the board.
    explain_(sel) {
        const p = this.pos_;
        if (!p) {
            return;
        }
        const side = p.toMove ? sideLabel(p.toMove) : null;
        if (!sel) {
            let text = !p.legal.length ? (this.spec_.variant === 'sniderman'
                ? 'No capture is left: the round is over, and the object decides who wins.'
                : 'The side to move has no legal move, so it has lost (the game is over).')
                : `${side} to move${p.inCheck ? ' — and in check' : ''}: ${plural(p.legal.length, 'legal move')}. `
                  + 'Click a piece to see where it may go.';
            if (this.spec_.variant === 'sniderman' && p.legal.length) {
                text = `${side} to move: ${plural(p.legal.length, 'capture')} possible, with pieces of either colour. Click a piece.`;
            }
            this.info_.textContent = text;
            return;
        }
        if (sel.drop) {
            const drops = p.legal.filter((m) => m.startsWith('@')).map((m) => m.slice(1));
            this.info_.textContent = `A man from the reserve may be dropped on ${drops.join(', ')}: `
                + 'the empty squares among its side\'s six starting squares.';
            return;
        }
        const code = p.board.squares[(Number(sel.from.slice(1)) - 1) * p.board.files + sel.from.charCodeAt(0) - 97];
        const info = describePiece(code, this.spec_.variant);
        const moves = p.legal.filter((m) => !m.startsWith('@') && moveSquares(m).squares[0] === sel.from);
        const parts = [`The ${info?.name ?? 'piece'} on ${sel.from}`];
        const powers = p.powers?.[sel.from];
        if (typeof powers === 'string') {
            parts.push(` ${powersText(powers)}`);
            const why = powersWhy(powers);
            if (why.length) {
                parts.push(` (${why.join('; ')})`);
            }
        } else {
            const d = describeForBoard(this.spec_.variant, code);
            // "is a checkers man: …", but "moves like a chess knight" and "never moves" need no "is".
            parts.push(d ? `${/^(moves|never)\b/.test(d) ? '' : ' is'} ${d}` : '');
        }
        parts.push(moves.length ? `. Its moves here: ${moves.join(', ')}.` : '. It has no legal move here.');
        if (this.spec_.variant === 'chesica' && moves.length && p.legal.every((m) => m.includes('x'))) {
            parts.push(' Every move on offer is a capture: when a jump is possible, a jump must be made.');
        }
        this.info_.textContent = parts.join('');
    }
}
