// Sniderman's match panel: the score, the round, the object (named from the catalogue by the namer,
// only unused ones), the ODD/EVEN choice, and the results of earlier rounds.
import { h, plural } from './ui.js';

export class MatchPanel {
    // actions: {nameObject(n), chooseSide('odd'|'even')}
    constructor(host, actions) {
        this.host_ = host;
        this.actions_ = actions;
    }

    // view: {match, seat (mine or null), nameOf(seat), over, roundWinners}
    render({ match: m, seat, nameOf, over, roundWinners }) {
        const score = h('div', { class: 'score', 'data-score': m.score.join('-'), 'aria-label':
            `Score: ${nameOf('player0')} ${m.score[0]}, ${nameOf('player1')} ${m.score[1]}` },
            h('span', { class: 'who' }, nameOf('player0')), h('b', {}, `${m.score[0]} – ${m.score[1]}`),
            h('span', { class: 'who' }, nameOf('player1')));
        const head = h('div', { class: 'match-head' },
            h('span', {}, `Round ${m.round} of ${m.rounds}`),
            h('span', { class: 'muted' }, `first to win ${plural((m.rounds + 1) / 2, 'round')}`));
        const parts = [head, score];
        const objectText = (n) => m.objects.find((o) => o.object === n)?.text ?? `Object ${n}`;
        if (m.object) {
            parts.push(h('p', { class: 'object', 'data-object': m.object },
                h('span', { class: 'object-num' }, `#${m.object}`), objectText(m.object)));
        }
        if (m.phase === 'naming' && !over) {
            parts.push(this.naming_(m, seat, nameOf));
        } else if (m.phase === 'choosing' && !over) {
            parts.push(this.choosing_(m, seat, nameOf));
        } else if (m.phase === 'playing' && m.odd) {
            parts.push(h('p', { class: 'sides' }, h('span', { class: 'side-chip odd' }, 'ODD'), ` ${nameOf(m.odd)}  `,
                         h('span', { class: 'side-chip even' }, 'EVEN'), ` ${nameOf(m.even)}`));
        }
        if (m.winner) {
            parts.push(h('p', { class: 'match-winner' }, `${nameOf(m.winner)} wins the match.`));
        }
        const results = this.results_(m, roundWinners, nameOf, objectText);
        if (results) {
            parts.push(results);
        }
        this.host_.dataset.phase = m.phase;
        this.host_.replaceChildren(...parts);
    }

    naming_(m, seat, nameOf) {
        const mine = seat && m.namer === seat;
        const list = h('ul', { class: 'objects', 'aria-label': 'Objects' });
        for (const o of m.objects) {
            const text = h('span', {}, h('span', { class: 'object-num' }, `#${o.object}`), o.text);
            if (mine && o.available) {
                const b = h('button', { type: 'button', class: 'object-choice', 'data-object': o.object }, text);
                b.addEventListener('click', () => this.actions_.nameObject(o.object));
                list.append(h('li', {}, b));
            } else {
                list.append(h('li', { class: o.available ? 'open' : 'used' }, text));
            }
        }
        return h('div', { class: 'phase naming' },
            h('p', { class: 'prompt' }, mine ? 'Name the object for this round:'
                                             : `${nameOf(m.namer)} is naming the object from this list:`),
            list);
    }

    choosing_(m, seat, nameOf) {
        if (!(seat && m.chooser === seat)) {
            return h('p', { class: 'prompt' }, `${nameOf(m.chooser)} is choosing ODD or EVEN.`);
        }
        const odd = h('button', { type: 'button', class: 'btn primary', 'data-side': 'odd' },
                      h('b', {}, 'ODD'), h('small', {}, 'moves 1, 3, 5…'));
        const even = h('button', { type: 'button', class: 'btn primary', 'data-side': 'even' },
                       h('b', {}, 'EVEN'), h('small', {}, 'moves 2, 4, 6…'));
        odd.addEventListener('click', () => this.actions_.chooseSide('odd'));
        even.addEventListener('click', () => this.actions_.chooseSide('even'));
        return h('div', { class: 'phase choosing' }, h('p', { class: 'prompt' }, 'Choose your side for this round:'),
                 h('div', { class: 'row' }, odd, even));
    }

    results_(m, roundWinners, nameOf, objectText) {
        const rows = [];
        m.records.forEach((r, i) => {
            if (r.winner === null || r.winner === undefined) {
                return;
            }
            rows.push({ round: i + 1, object: r.object, winner: r.winner, why: r.why,
                        side: r.odd ? (r.odd === r.winner ? 'odd' : 'even') : null });
        });
        for (const w of roundWinners) {
            if (!rows.some((r) => r.round === w.round)) {
                rows.push({ round: w.round, object: w.object, winner: w.player, side: w.winner, why: w.why });
            }
        }
        if (!rows.length) {
            return null;
        }
        return h('ul', { class: 'rounds', 'aria-label': 'Rounds played' }, ...rows.map((r) => h('li', { 'data-round': r.round, 'data-object': r.object ?? '' },
            `Round ${r.round}: `, h('b', {}, nameOf(r.winner)), r.side ? ` (${r.side.toUpperCase()})` : '',
            r.object ? h('span', { class: 'muted' }, ` — #${r.object} ${objectText(r.object)}`) : '',
            r.why ? h('span', { class: 'why' }, r.why) : '')));
    }
}
