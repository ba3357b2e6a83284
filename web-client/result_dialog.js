// The end of a game in words — who won, why (and in Sniderman which object and which capture
// decided the last round) — and what to do next: rematch, a new opponent, the analysis board (with
// the computer's analysis), the game record. Shown in the side panel, and once as a card over the board when the game ends.
import { h, reasonSentence, reasonText, sideLabel } from './ui.js';
import { askOnArrival } from './analysis_engine.js';

// The last finished Sniderman round: {round, object, odd, moves, why, winner}.
function lastRound(g) {
    const live = g.roundWinners.at(-1);
    const records = g.match?.records ?? [];
    const done = records.map((r, i) => ({ ...r, round: i + 1 })).filter((r) => r.winner);
    const last = done.at(-1);
    if (live && (!last || live.round >= last.round)) {
        return { round: live.round, object: live.object, moves: live.moves ?? [], why: live.why,
                 side: live.winner, winner: live.player };
    }
    return last ? { round: last.round, object: last.object, moves: last.moves, why: last.why,
                    side: last.odd ? (last.odd === last.winner ? 'odd' : 'even') : null, winner: last.winner } : null;
}

// {headline, lines: [text]} for a finished game. `nameOf(seat)`; `seat`: the viewer's, or null.
export function resultWords(g, nameOf, seat) {
    const r = g.result;
    const w = r.winner;
    if (g.variant === 'sniderman') {
        const lines = [];
        const score = g.match?.score ?? [0, 0];
        if (w) {
            const other = w === 'player0' ? 'player1' : 'player0';
            const rounds = g.match?.rounds ?? 0;
            lines.push(r.reason === 'match_won'
                ? `${nameOf(w)} won the match ${Math.max(...score)}–${Math.min(...score)}: ${rounds === 1
                    ? 'the match had a single round.' : `more than half of the ${rounds} rounds.`}`
                : reasonSentence(g.variant, r.reason, nameOf(w), nameOf(other)));
        }
        const last = lastRound(g);
        if (last && r.reason === 'match_won') {
            const text = g.match?.objects.find((o) => o.object === last.object)?.text ?? '';
            lines.push(`Round ${last.round}, object #${last.object}: ${text}.`);
            const capture = last.moves.at(-1);
            if (capture) {
                lines.push(`The last capture, ${capture}, ended the round. ${last.why || `${sideLabel(last.side)} won it.`}`);
            }
            if (last.side && last.winner) {
                lines.push(`${nameOf(last.winner)} was ${sideLabel(last.side)} in that round.`);
            }
        }
        const headline = !w ? 'Match over' : w === seat ? 'You won the match!' : `${nameOf(w)} wins the match`;
        return { headline, lines };
    }
    if (!w) {
        const headline = r.reason === 'aborted' ? 'Game aborted' : 'Draw';
        return { headline, lines: [reasonSentence(g.variant, r.reason, null, null)] };
    }
    const loser = w === 'white' ? 'black' : 'white';
    const winnerName = `${nameOf(w)} (${sideLabel(w)})`;
    const loserName = `${nameOf(loser)} (${sideLabel(loser)})`;
    const headline = seat === w ? 'You won!' : seat === loser ? `${nameOf(w)} won` : `${nameOf(w)} wins`;
    return { headline, lines: [`${winnerName} beat ${loserName}.`, reasonSentence(g.variant, r.reason, nameOf(w), nameOf(loser))] };
}

// Whether a PGN is worth offering: not for a game aborted before any move (it records nothing).
export function hasRecord(g) {
    const moved = g.moves.length > 0 || (g.match?.records ?? []).some((r) => r.moves?.length) || (g.roundWinners ?? []).length > 0;
    return moved || g.result?.reason !== 'aborted';
}

// The result in one line, for the end of the move list: "1–0 · White wins by resignation",
// "½–½ · draw by agreement", "Game aborted", Sniderman "Ann wins the match 2–1".
export function resultLine(g, nameOf) {
    const r = g.result;
    if (!r) {
        return null;
    }
    if (r.reason === 'aborted' && !r.winner) {
        return 'Game aborted';
    }
    if (g.variant === 'sniderman') {
        const score = g.match?.score ?? [0, 0];
        return r.winner ? `${nameOf(r.winner)} wins the match ${Math.max(...score)}–${Math.min(...score)}` : 'Match over';
    }
    if (!r.winner) {
        return `½–½ · draw by ${reasonText(r.reason)}`;
    }
    return `${r.winner === 'white' ? '1–0' : '0–1'} · ${sideLabel(r.winner)} wins by ${reasonText(r.reason)}`;
}

// What can be done after the game, as buttons and links. act: {rematchOffer, rematchAccept,
// newOpponent, vsComputer (New opponent becomes "Play the computer again"), analysisHref, pgnHref, pgnName}; `dialog` marks the copy inside the card over the
// board (its buttons carry data-dialog-action, the side panel's data-action).
export function afterGameActions(g, seat, nameOf, act, dialog = false) {
    const key = dialog ? 'data-dialog-action' : 'data-action';
    const items = [];
    const button = (label, action, onClick, cls = 'btn', disabled = false) => {
        const b = h('button', { type: 'button', class: cls, [key]: action, disabled }, label);
        b.addEventListener('click', onClick);
        items.push(b);
    };
    if (g.tournamentId) {
        // An arena's game has no rematch: the next game comes from the tournament.
        if (dialog) {
            items.push(h('a', { class: 'btn primary', href: `/tournament/${encodeURIComponent(g.tournamentId)}`,
                                [key]: 'back-to-tournament' }, 'Back to the tournament'));
        }
    } else if (g.rematchGameId) {
        items.push(h('a', { class: 'btn primary', href: `/game/${encodeURIComponent(g.rematchGameId)}`, [key]: 'rematch-go' },
                     'Go to the rematch'));
    } else if (seat && g.rematchOffer && g.rematchOffer !== seat) {
        items.push(h('p', { class: 'offer' }, `${nameOf(g.rematchOffer)} wants a rematch.`));
        button('Accept rematch', 'rematch-accept', act.rematchAccept, 'btn primary');
    } else if (seat) {
        const mine = g.rematchOffer === seat;
        button(mine ? 'Rematch offered' : 'Rematch', 'rematch-offer', act.rematchOffer, 'btn primary', mine);
    }
    if (seat && !g.tournamentId) {
        button(act.vsComputer ? 'Play the computer again' : 'New opponent', 'new-opponent', act.newOpponent);
    }
    // The analysis board; with a game to analyse, the link also asks the computer for its analysis.
    if (hasRecord(g)) {
        const a = h('a', { class: 'btn', href: act.analysisHref, [key]: 'analysis',
                           title: 'Open the analysis board and ask the computer to analyse the game' },
                    'Analyse with the computer');
        a.addEventListener('click', () => askOnArrival(g.gameId));
        items.push(a);
    } else {
        items.push(h('a', { class: 'btn', href: act.analysisHref, [key]: 'analysis' }, 'Analysis board'));
    }
    if (hasRecord(g)) {
        items.push(h('a', { class: 'btn', href: act.pgnHref, download: act.pgnName, [key]: 'pgn' }, 'Download PGN'));
    }
    return items;
}

// The card over the board: opened once when a game ends while the page is open.
export class ResultCard {
    constructor(host) {
        this.el_ = h('dialog', { class: 'result-card', 'aria-labelledby': 'result-title' });
        this.el_.addEventListener('keydown', (e) => {
            if (e.key === 'Escape') {
                this.close();
            }
        });
        host.append(this.el_);
    }

    get open() {
        return this.el_.open;
    }

    show(words, actions) {
        const close = h('button', { type: 'button', class: 'btn ghost close', 'data-dialog-action': 'close',
                                    'aria-label': 'Close' }, '×');
        close.addEventListener('click', () => this.close());
        this.el_.replaceChildren(close, h('h2', { id: 'result-title', tabindex: -1 }, words.headline),
            ...words.lines.map((l) => h('p', {}, l)), h('div', { class: 'row' }, ...actions));
        if (!this.el_.open) {
            this.el_.show();
        }
        this.el_.querySelector('h2').focus();
    }

    // Redraws the card if it is open (a rematch offer arrived).
    update(words, actions) {
        if (this.el_.open) {
            this.show(words, actions);
        }
    }

    close() {
        this.el_.close();
    }
}
