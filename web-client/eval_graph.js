// The evaluation graph of the analysis board: the first side's winning chances (White's, ODD's in
// Sniderman), 0–100, position by position, as an inline SVG that scales to its container's width.
// The light area is the first side's share, the dark one the second's; the position shown has a
// line, judged moves a dot in their judgement's colour.
import { el } from './squares.js';

const W = 600;
const H = 140;
const PAD = 6;

// wins[i]: the chances after i moves (wins[0] the start). current: the index shown (null: none).
// marks: [{index, judgement}]. step: draw jumps as steps (Sniderman's won/lost). onPick(index): a
// click on the graph, with the nearest position. label: what the graph shows, in words.
export function evalGraph({ wins, current = null, marks = [], step = false, onPick = null, label = '' }) {
    const n = Math.max(wins.length - 1, 1);
    const x = (i) => PAD + (i * (W - 2 * PAD)) / n;
    const y = (w) => PAD + ((100 - Math.max(0, Math.min(100, w))) * (H - 2 * PAD)) / 100;
    const svg = el('svg', { class: 'eval-graph', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label,
                            'data-points': wins.length, 'data-current': current ?? '' });
    const pts = [];
    wins.forEach((w, i) => {
        if (step && i > 0) {
            pts.push([x(i), y(wins[i - 1])]);
        }
        pts.push([x(i), y(w)]);
    });
    const line = pts.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' ');
    svg.append(el('rect', { x: 0, y: 0, width: W, height: H, class: 'eg-second' }),
               el('polygon', { points: `${x(0)},${H} ${line} ${x(wins.length - 1)},${H}`, class: 'eg-first' }),
               el('line', { x1: 0, x2: W, y1: y(50), y2: y(50), class: 'eg-mid' }),
               el('polyline', { points: line, class: 'eg-line' }));
    if (current !== null && current >= 0 && current < wins.length) {
        svg.append(el('line', { x1: x(current), x2: x(current), y1: 0, y2: H, class: 'eg-current' }),
                   el('circle', { cx: x(current), cy: y(wins[current]), r: 5, class: 'eg-current-dot' }));
    }
    for (const m of marks) {
        if (m.index >= 0 && m.index < wins.length) {
            svg.append(el('circle', { cx: x(m.index), cy: y(wins[m.index]), r: 6.5, class: `eg-mark ${m.judgement}`,
                                      'data-index': m.index, 'data-judgement': m.judgement }));
        }
    }
    if (onPick) {
        svg.classList.add('pickable');
        svg.addEventListener('click', (e) => {
            const r = svg.getBoundingClientRect();
            const vx = ((e.clientX - r.left) / (r.width || 1)) * W;
            onPick(Math.max(0, Math.min(wins.length - 1, Math.round(((vx - PAD) * n) / (W - 2 * PAD)))));
        });
    }
    return svg;
}
