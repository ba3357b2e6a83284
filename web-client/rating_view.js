// How ratings look (issue 16): a rating rounded, with "?" while provisional (RD above 110, as on
// lichess), a signed change, the rating change at the end of a rated game, and a rating-history
// chart drawn as SVG (no external services).
import { h } from './ui.js';

export const PROVISIONAL_RD = 110;
const SVG = 'http://www.w3.org/2000/svg';

export const ratingText = (r) => `${Math.round(r.rating)}${r.rd > PROVISIONAL_RD ? '?' : ''}`;
export const signed = (x) => `${x >= 0 ? '+' : '−'}${Math.abs(Math.round(x))}`;

// Fills `host` with each seat's rating before → after a rated game; empty and hidden without one.
export function renderRatingChange(host, changes, { meId, nameOf }) {
    host.hidden = !changes || changes.length === 0;
    if (host.hidden) {
        host.replaceChildren();
        return;
    }
    host.replaceChildren(h('h3', {}, 'Rating change'), h('ul', {}, ...changes.map((c) => {
        const delta = c.after.rating - c.before.rating;
        return h('li', { 'data-player': c.player_id, class: c.player_id === meId ? 'me' : null },
            h('a', { href: `/player/${encodeURIComponent(c.player_id)}` }, nameOf(c.seat)), ' ',
            h('span', { class: 'rating-before' }, ratingText(c.before)), ' → ',
            h('strong', { class: 'rating-after' }, ratingText(c.after)), ' ',
            h('span', { class: `rating-delta ${delta >= 0 ? 'up' : 'down'}`, 'data-delta': delta }, signed(delta)));
    })));
}

function svg(tag, attrs = {}, ...children) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) {
        e.setAttribute(k, String(v));
    }
    e.append(...children);
    return e;
}

// An SVG line chart of `points` ([{at, rating, rd, change}], oldest first): one point per rated
// game, the rating's ±RD band shaded, the x axis in game order. The line starts from the rating
// before the first game (a hollow mark), so that even one game draws a line, not a lone dot.
export function ratingChart(games, { width = 560, height = 180, label = 'Rating history' } = {}) {
    const pad = { left: 44, right: 12, top: 12, bottom: 22 };
    const first = games[0];
    const points = first ? [{ rating: first.rating - (first.change ?? 0), rd: 350, start: true }, ...games] : [];
    const all = [{ rating: 1500, rd: 0 }, ...points];
    const lo = Math.min(...all.map((p) => p.rating - Math.min(p.rd, 150)));
    const hi = Math.max(...all.map((p) => p.rating + Math.min(p.rd, 150)));
    const span = Math.max(hi - lo, 50);
    const x = (i) => pad.left + (points.length <= 1 ? 0.5 : i / (points.length - 1)) * (width - pad.left - pad.right);
    const y = (r) => pad.top + (1 - (r - lo) / span) * (height - pad.top - pad.bottom);
    const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'rating-chart', role: 'img',
                               'aria-label': `${label}: ${games.length} rated game${games.length === 1 ? '' : 's'}, now ${games.length ? Math.round(games.at(-1).rating) : 1500}` });
    for (const r of [lo, lo + span / 2, lo + span]) {
        chart.append(svg('line', { x1: pad.left, x2: width - pad.right, y1: y(r), y2: y(r), class: 'grid' }),
                     svg('text', { x: pad.left - 6, y: y(r) + 4, 'text-anchor': 'end', class: 'axis' }, String(Math.round(r))));
    }
    if (points.length > 0) {
        const upper = points.map((p, i) => `${x(i)},${y(p.rating + Math.min(p.rd, 150))}`);
        const lower = points.map((p, i) => `${x(i)},${y(p.rating - Math.min(p.rd, 150))}`).reverse();
        chart.append(svg('polygon', { points: [...upper, ...lower].join(' '), class: 'band' }));
        chart.append(svg('polyline', { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(' '), class: 'line' }));
        points.forEach((p, i) => chart.append(p.start
            ? svg('circle', { cx: x(i), cy: y(p.rating), r: 3, class: 'start' }, svg('title', {}, `Before the first rated game: ${Math.round(p.rating)}`))
            : svg('circle', { cx: x(i), cy: y(p.rating), r: 3, class: 'point' },
                  svg('title', {}, `${new Date(p.at * 1000).toLocaleDateString()}: ${Math.round(p.rating)} (RD ${Math.round(p.rd)})`))));
    }
    chart.append(svg('text', { x: pad.left, y: height - 6, class: 'axis' }, 'start'),
                 svg('text', { x: width - pad.right, y: height - 6, 'text-anchor': 'end', class: 'axis' }, 'latest'));
    return chart;
}
