// Drawing helpers of the Board, mixed into its prototype: the slide of the last move, the
// coordinates, arrows, and the Chessence reserve piles.
import { pieceIcon } from './pieces.js';
import { CELL, SVG_NS, el, moveSquares } from './squares.js';

export const drawMethods = {
    // Slides the piece that just arrived along its squares (a drop fades in). The slide is drawn
    // by a copy in a layer of its own above the squares, while the piece itself waits, unseen, on
    // its square: the square keeps its place and size throughout (what a drag aims at, or a
    // screen reader or a test measures, is the square, never the path of the slide).
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
        const layer = el('g', { class: 'slide', 'aria-hidden': 'true' });
        const copy = document.createElementNS(SVG_NS, 'g');
        copy.appendChild(piece.cloneNode(true));
        layer.appendChild(copy);
        this.svg_.appendChild(layer);
        piece.classList.add('arriving');
        const duration = 110 + 90 * (a.squares.length - 1);
        this.slideEnds_ = performance.now() + duration;
        const done = () => {
            layer.remove();
            piece.classList.remove('arriving');
        };
        const run = copy.animate(frames, { duration, easing: 'ease-out' });
        run.onfinish = done;
        run.oncancel = done;
    },

    // How long the last move's slide still runs (ms; 0 when none does).
    slideLeft() {
        return Math.max(0, (this.slideEnds_ ?? 0) - performance.now());
    },

    // Rank numbers in the top-left corner of each rank's leftmost square, file letters in the
    // bottom-left corner of each file's lowest square (as the board is turned). A Chessence hole
    // at the edge passes the label to the next square inwards: every rank and file is named.
    drawCoords_(g, file, rank, x, y) {
        const { files, ranks, squares } = this.state_.board;
        const flipped = this.state_.flipped;
        const hole = (f, r) => squares[r * files + f] === '*';
        const step = flipped ? -1 : 1;
        let edgeFile = flipped ? files - 1 : 0;
        while (hole(edgeFile, rank) && edgeFile !== file) {
            edgeFile += step;
        }
        let edgeRank = flipped ? ranks - 1 : 0;
        while (hole(file, edgeRank) && edgeRank !== rank) {
            edgeRank += step;
        }
        if (file === edgeFile) {
            const t = el('text', { x: x + 5, y: y + 21, class: 'coord rank', 'aria-hidden': 'true' });
            t.textContent = String(rank + 1);
            g.appendChild(t);
        }
        if (rank === edgeRank) {
            const t = el('text', { x: x + 5, y: y + CELL - 7, class: 'coord file', 'aria-hidden': 'true' });
            t.textContent = String.fromCharCode(97 + file);
            g.appendChild(t);
        }
    },

    // The arrows of state.arrows (moves in notation, e.g. the engine's best move): one shaft through
    // every square the move passes (a jump's landings too) and a head on the last; a drop is a
    // ring on its square. Drawn above the pieces, never in the way of a click.
    drawArrows_(frag) {
        const moves = this.state_.arrows ?? [];
        if (!moves.length) {
            return;
        }
        const layer = el('g', { class: 'arrows', 'aria-hidden': 'true' });
        const centre = (sq) => {
            const p = this.toScreen_(sq.charCodeAt(0) - 97, Number(sq.slice(1)) - 1);
            return { x: p.x + CELL / 2, y: p.y + CELL / 2 };
        };
        for (const move of moves) {
            const { drop, squares } = moveSquares(move);
            const g = el('g', { class: `arrow${drop ? ' drop' : ''}`, 'data-move': move });
            if (drop || squares.length < 2) {
                const c = centre(squares[0]);
                g.appendChild(el('circle', { cx: c.x, cy: c.y, r: CELL * 0.42, class: 'arrow-ring' }));
                layer.appendChild(g);
                continue;
            }
            const pts = squares.map(centre);
            const a = pts.at(-2);
            const b = pts.at(-1);
            const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
            const [ux, uy] = [(b.x - a.x) / len, (b.y - a.y) / len];
            const head = CELL * 0.38;
            const shaftEnd = { x: b.x - ux * head, y: b.y - uy * head };
            const line = [...pts.slice(0, -1), shaftEnd].map((p) => `${p.x},${p.y}`).join(' ');
            g.appendChild(el('polyline', { points: line, class: 'arrow-shaft' }));
            const w = CELL * 0.24;
            const tip = { x: b.x - ux * CELL * 0.08, y: b.y - uy * CELL * 0.08 };
            const base = { x: b.x - ux * head * 1.1, y: b.y - uy * head * 1.1 };
            g.appendChild(el('polygon', { class: 'arrow-head', points: [
                `${tip.x},${tip.y}`, `${base.x - uy * w},${base.y + ux * w}`, `${base.x + uy * w},${base.y - ux * w}`].join(' ') }));
            layer.appendChild(g);
        }
        frag.appendChild(layer);
    },

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
            const active = s.dropSide === index && reserves[index] > 0
                && (hasDrops || (this.premoveMode_() && s.premoveDrops));
            const pile = document.createElement('button');
            pile.type = 'button';
            pile.className = `reserve ${index === 0 ? 'white' : 'black'}`;
            pile.dataset.reserve = index === 0 ? 'white' : 'black';
            pile.disabled = !active;
            pile.setAttribute('aria-pressed', String(!!(active && this.selected_?.drop)));
            pile.setAttribute('aria-label', `${color} reserve: ${reserves[index]} ${reserves[index] === 1 ? 'man' : 'men'}`
                + `${active ? ', select to drop one' : ''}`);
            for (let i = 0; i < Math.max(reserves[index], 0); i++) {
                pile.appendChild(pieceIcon(index === 0 ? 'M' : 'm', 26));
            }
            const count = document.createElement('span');
            count.className = 'count';
            count.textContent = `×${reserves[index]}`;
            pile.appendChild(count);
            pile.addEventListener('click', () => this.selectReserve_());
            row.appendChild(pile);
        }
    },

};
