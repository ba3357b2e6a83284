// The move list with review controls: numbered moves (pairs for White/Black, single plies for
// ODD/EVEN) and, once the game is over, its result; clicking a move shows the position after it,
// the arrows step, "live" returns. On a phone a compact strip of the same moves sits above the board.
import { h } from './ui.js';

// Fills `host` with the moves of record `g`; onReview(ply | null) is called on navigation; `result`
// is the game's result in a line (null while it goes on).
export function renderMoveList(host, g, viewPly, onReview, result = null) {
    const current = viewPly ?? g.moves.length;
    const cell = (ply) => {
        const known = !!g.history[ply];
        const b = h('button', { type: 'button', class: `mv${ply === current ? ' active' : ''}`,
                                'data-ply': ply, 'aria-current': ply === current ? 'step' : null,
                                title: known ? null : 'position not loaded yet' }, g.moves[ply - 1]);
        b.addEventListener('click', () => onReview(ply));
        return b;
    };
    const list = h('ol', { class: 'move-list', 'data-count': g.moves.length });
    if (g.variant === 'sniderman') {
        g.moves.forEach((_, i) => list.append(h('li', { class: 'ply' },
            h('span', { class: 'num' }, `${i + 1}.`),
            h('span', { class: `side-chip small ${i % 2 ? 'even' : 'odd'}` }, i % 2 ? 'EVEN' : 'ODD'), cell(i + 1))));
    } else {
        for (let i = 0; i < g.moves.length; i += 2) {
            list.append(h('li', { class: 'pair' }, h('span', { class: 'num' }, `${i / 2 + 1}.`), cell(i + 1),
                          i + 1 < g.moves.length ? cell(i + 2) : h('span', { class: 'mv empty' })));
        }
    }
    if (g.moves.length === 0 && !result) {
        list.append(h('li', { class: 'empty' }, 'No moves yet.'));
    }
    if (result) {
        list.append(h('li', { class: 'result', 'data-result': g.result?.winner ?? 'draw' }, result));
    }
    const nav = h('div', { class: 'review-nav', role: 'group', 'aria-label': 'Review moves' });
    const button = (label, text, ply, disabled) => {
        const b = h('button', { type: 'button', class: 'btn nav-btn', 'aria-label': label, title: label,
                                'data-nav': label.split(' ')[0].toLowerCase(), disabled: disabled || null }, text);
        b.addEventListener('click', () => onReview(ply));
        nav.append(b);
    };
    const live = viewPly === null;
    button('First position', '«', 0, current === 0);
    button('Previous move', '‹', current - 1, current === 0);
    button('Next move', '›', current + 1, live);
    button('Live position', live ? 'Live' : 'Back to live', null, live);
    host.replaceChildren(nav, list);
    const active = list.querySelector('.mv.active');
    if (active) {
        list.scrollTop = Math.max(0, active.offsetTop - list.clientHeight / 2);
    } else if (live) {
        list.scrollTop = list.scrollHeight;
    }
}

// The phone's strip above the board: the moves in one scrolling line (each one reviews its
// position), the result at its end; it keeps the move shown (or the last one) in view.
export function renderMoveStrip(host, g, viewPly, onReview, result = null) {
    const current = viewPly ?? g.moves.length;
    const items = g.moves.map((m, i) => {
        const ply = i + 1;
        const b = h('button', { type: 'button', class: `mv${ply === current ? ' active' : ''}`, 'data-ply': ply,
                                'aria-current': ply === current ? 'step' : null }, m);
        b.addEventListener('click', () => onReview(ply === current && viewPly !== null ? null : ply));
        const paired = g.variant !== 'sniderman';
        const num = paired ? (i % 2 === 0 ? `${i / 2 + 1}.` : '') : `${ply}.`;
        return h('li', {}, num ? h('span', { class: 'num' }, num) : '', b);
    });
    if (result) {
        items.push(h('li', { class: 'result' }, result));
    }
    if (!items.length) {
        items.push(h('li', { class: 'empty' }, 'No moves yet.'));
    }
    const list = h('ol', { class: 'move-strip-list' }, ...items);
    host.replaceChildren(list);
    const target = list.querySelector('.mv.active') ?? list.lastElementChild;
    list.scrollLeft = Math.max(0, target.offsetLeft + target.offsetWidth - list.clientWidth + 8);
}
