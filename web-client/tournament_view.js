// The parts of the tournament page that only draw what they are given: the standings table (a page
// of it), its pager, the podium and the words for times and states.
import { h } from './ui.js';

export const STANDINGS_PAGE = 10;

// "4:05", "1:02:03" to go (0:00 once past).
export function durationText(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    const hh = Math.floor(s / 3600);
    const mm = Math.floor((s % 3600) / 60);
    const ss = String(s % 60).padStart(2, '0');
    return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

const STATUS_TEXT = { created: 'Starting soon', started: 'Playing now', finished: 'Finished' };
export const statusText = (s) => STATUS_TEXT[s] ?? s;

// The flame of a player on fire, drawn (an emoji needs a font the computer may lack).
function flame() {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 16 16');
    svg.setAttribute('aria-hidden', 'true');
    svg.innerHTML = '<path fill="currentColor" d="M8 1c.5 2.6 3.5 4.2 3.5 7.6A3.5 3.5 0 0 1 8 15a3.5 3.5 0 0 1-3.5-3.6'
        + 'c0-1.6.8-2.7 1.6-3.5.1 1.2.6 2 1.4 2.4C7 8 6.6 4.4 8 1z"/>';
    return h('span', { class: 'fire', role: 'img', 'aria-label': 'on fire', title: 'On fire: the next win scores double' }, svg);
}

// The sheet as lichess shows it: one digit a game, newest first; the games scored on fire marked.
function sheetCell(line) {
    const digits = [...line.sheet].map((d) => (Number(d) >= 4
        ? h('span', { class: 'fire-score', title: 'on fire: double points' }, d) : h('span', {}, d)));
    return h('td', { class: 'sheet' }, ...digits, line.fire ? flame() : '');
}

// The player's page exists for every player (/player/<id>).
const playerLink = (line) => h('a', { href: `/player/${encodeURIComponent(line.playerId)}` }, line.name);

// One page (from 0) of `lines` (sorted by rank), with the viewer's line marked.
export function standingsTable(lines, page, meId) {
    const shown = lines.slice(page * STANDINGS_PAGE, (page + 1) * STANDINGS_PAGE);
    if (shown.length === 0) {
        return h('p', { class: 'empty' }, 'Nobody has joined yet.');
    }
    return h('table', { class: 'list standings' },
        h('caption', { class: 'visually-hidden' }, 'Standings'),
        h('thead', {}, h('tr', {}, ...['Rank', 'Player', 'Rating', 'Points per game', 'Score']
            .map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, ...shown.map((l) => h('tr', {
            'data-player': l.playerId, 'data-status': l.status, class: l.playerId === meId ? 'me' : null },
            h('td', { class: 'rank' }, String(l.rank)),
            h('td', { class: 'name' }, playerLink(l), l.status === 'withdrawn' ? h('span', { class: 'badge' }, 'withdrawn')
                : l.status === 'paused' ? h('span', { class: 'badge' }, 'paused') : ''),
            h('td', {}, String(l.rating)), sheetCell(l), h('td', { class: 'points' }, String(l.score))))));
}

// The pager under the table: ← / page n of m / →.
export function pager(page, count, go) {
    const pages = Math.max(1, Math.ceil(count / STANDINGS_PAGE));
    const button = (label, to, action) => {
        const b = h('button', { type: 'button', class: 'btn small', 'data-action': action,
                                disabled: to < 0 || to >= pages }, label);
        b.addEventListener('click', () => go(to));
        return b;
    };
    return pages <= 1 ? '' : h('div', { class: 'row pager' }, button('← Previous', page - 1, 'prev-page'),
        h('span', {}, `Page ${page + 1} of ${pages}`), button('Next →', page + 1, 'next-page'));
}

// The first three at the end.
export function podium(lines) {
    const places = ['1st', '2nd', '3rd'];
    return h('section', { class: 'card podium', 'aria-labelledby': 'podium-title' },
        h('h2', { id: 'podium-title' }, 'Podium'),
        lines.length === 0 ? h('p', { class: 'empty' }, 'Nobody played.')
            : h('ol', { class: 'podium-list' }, ...lines.slice(0, 3).map((l, i) => h('li', { 'data-place': i + 1 },
                h('span', { class: 'place' }, places[i]), ' ', playerLink(l), ' ',
                h('span', { class: 'points' }, `${l.score} points`), ' ',
                h('span', { class: 'meta' }, `${l.games} games · performance ${l.performance}`)))));
}
