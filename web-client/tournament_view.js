// The parts of the tournament page that only draw what they are given: the standings table (a page
// of it), the podium, the top games and the words for times and states.
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

// The sheet as lichess shows it: one digit a game, newest first; the games scored on fire marked.
function sheetCell(line) {
    const digits = [...line.sheet].map((d) => (Number(d) >= 4
        ? h('span', { class: 'fire-score', title: 'on fire: double points' }, d) : h('span', {}, d)));
    return h('td', { class: 'sheet' }, ...digits,
             line.fire ? h('span', { class: 'fire', role: 'img', 'aria-label': 'on fire', title: 'On fire: the next win scores double' }, '🔥') : '');
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
            h('td', {}, String(l.rating)), sheetCell(l), h('td', { class: 'score' }, String(l.score))))));
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
                h('span', { class: 'score' }, `${l.score} points`), ' ',
                h('span', { class: 'meta' }, `${l.games} games · performance ${l.performance}`)))));
}

// The top games in progress, as links.
export function duelList(duels) {
    const side = (p) => `${p.name} (#${p.rank}, ${p.rating})`;
    return h('section', { class: 'card duels', 'aria-labelledby': 'duels-title' },
        h('h2', { id: 'duels-title' }, 'Top games'),
        duels.length === 0 ? h('p', { class: 'empty' }, 'No game in progress.')
            : h('ul', { class: 'game-list' }, ...duels.map((d) => h('li', { 'data-duel': d.gameId },
                h('a', { class: 'game-link', href: `/game/${encodeURIComponent(d.gameId)}` },
                  h('span', {}, side(d.first)), h('span', { class: 'meta' }, 'vs'), h('span', {}, side(d.second)))))));
}
