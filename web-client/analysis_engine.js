// The analysis board's "Computer analysis" panel: the server's engine analysis of a finished game
// (docs/protocol.md, "Game analysis"). Before anyone asked, a button asks for it (POST); while it
// is queued or running, its progress (asked again every 1.5 s until it is done or the page is
// left); once done, the evaluation of the position shown and the engine's move there, the
// judgement of the move just played with a button for the better line, the evaluation graph and
// each side's accuracy and mistakes. The page (analysis.js) says what the board shows (show()) and
// asks for the move list's marks (judgementAt()) and the board's arrow (arrows()).
import { fetchAnalysis, requestAnalysis } from './api.js';
import { evalGraph } from './eval_graph.js';
import { plyLabel } from './game_status.js';
import { h, plural, sideLabel } from './ui.js';

const POLL_MS = 1500;

// A judged move's mark and word, as lichess writes them.
export const JUDGEMENTS = {
    inaccuracy: { mark: '?!', word: 'Inaccuracy', words: 'Inaccuracies' },
    mistake: { mark: '?', word: 'Mistake', words: 'Mistakes' },
    blunder: { mark: '??', word: 'Blunder', words: 'Blunders' },
};

// An evaluation ({cp}|{mate}|{result}, the first side's view) in a few characters: "+1.2" (engine
// units / 100), "#4" / "#−4" (mate), "1–0" / "0–1" / "½–½" for a finished position; in Sniderman
// "ODD wins" / "EVEN wins".
export function evalText(ev, variant) {
    if (!ev) {
        return '–';
    }
    if (ev.result !== undefined) {
        if (variant === 'sniderman') {
            return ev.result === 'draw' ? 'Draw' : `${ev.result === 'win' ? 'ODD' : 'EVEN'} wins`;
        }
        return { win: '1–0', loss: '0–1' }[ev.result] ?? '½–½';
    }
    if (ev.mate !== undefined) {
        return ev.mate < 0 ? `#−${-ev.mate}` : `#${ev.mate}`;
    }
    const v = Math.round(Number(ev.cp) / 10) / 10; // one decimal; what rounds to 0.0 has no sign
    return v > 0 ? `+${v.toFixed(1)}` : v < 0 ? `−${(-v).toFixed(1)}` : '0.0';
}

// What the evaluation's numbers mean (its tooltip).
function evalUnits(variant) {
    if (variant === 'sniderman') {
        return 'Solved exactly: which side wins this round from here with best play.';
    }
    const unit = variant === 'chesica' ? 'a bishop is worth 1.00' : 'a man is worth 2.57';
    return `Engine units ÷ 100 (${unit}), from White's side: + means White stands better. `
        + '#n: White mates in n moves, #−n: Black does.';
}

// The game page's "Analyse with the computer" asks for the analysis on arrival: the link notes its
// game here (one page load, this tab) and the panel takes the note once.
const ASK_KEY = 'chessence.analyse';
export function askOnArrival(gameId) {
    try {
        sessionStorage.setItem(ASK_KEY, gameId);
    } catch {
        // no storage: the panel's button still asks
    }
}
function takeAsk(gameId) {
    try {
        if (sessionStorage.getItem(ASK_KEY) === gameId) {
            sessionStorage.removeItem(ASK_KEY);
            return true;
        }
    } catch {
        // no storage
    }
    return false;
}

// Words for the errors of POST (the server's own are used when it sent some).
const REQUEST_ERRORS = {
    too_many_analyses: 'You already have analyses waiting: ask again when one of them is done.',
    analysis_queue_full: 'The computer has too many games to analyse just now: try again in a minute.',
    analysis_unavailable: 'This server has no computer to analyse games.',
    game_not_finished: 'The game is not over yet: a game is analysed once it has ended.',
    server_restarting: 'The server is restarting: ask again in a moment.',
};

export class EnginePanel {
    // host: the panel's element. onJump(ply): show the main line after `ply` moves (the graph was
    // clicked). onLine(base, moves): play `moves` as a side line after `base` moves. onChange(): the
    // analysis arrived (the page redraws the move list's marks and the board's arrow).
    constructor(host, { gameId, onJump, onLine, onChange }) {
        this.host_ = host;
        this.gameId_ = gameId;
        this.onJump_ = onJump;
        this.onLine_ = onLine;
        this.onChange_ = onChange;
        this.g_ = null;
        this.state_ = 'idle'; // idle | unfinished | empty | loading | none | asking | waiting | done | failed
        this.a_ = null;       // the analysis (readAnalysis), once done
        this.progress_ = null;
        this.note_ = '';      // an error in words (the last request's)
        this.view_ = { line: 0, ply: 0, onSide: false, side: null };
        this.timer_ = null;
        this.stopped_ = false;
        this.host_.dataset.state = this.state_;
    }

    // The game as the page knows it: called with its first snapshot and again when it ends.
    setGame(g) {
        const first = !this.g_;
        this.g_ = g;
        if (!g.result) {
            this.setState_('unfinished');
        } else if (!g.moves.length && !(g.match?.records ?? []).some((r) => r.moves.length)) {
            this.setState_('empty');
        } else if (first || this.state_ === 'unfinished') {
            this.setState_('loading');
            this.load_();
        }
    }

    stop() {
        this.stopped_ = true;
        clearTimeout(this.timer_);
    }

    // What the board shows: {line (Sniderman: the round's index), ply, onSide, side: {base, moves,
    // engine}|null}.
    show(view) {
        this.view_ = view;
        this.render_();
    }

    // The analysed plies of line `line` (a Sniderman round's index) and its start: null if none.
    lineData_(line) {
        const a = this.a_;
        if (!a) {
            return null;
        }
        if (a.variant !== 'sniderman') {
            return { start: a.start, plies: a.plies, round: null };
        }
        const round = a.rounds.find((r) => r.round === line + 1);
        return round ? { start: round.start, plies: a.plies.filter((p) => p.round === round.round), round } : null;
    }

    // The analysed ply `ply` (from 1) of line `line`, or null.
    plyAt_(line, ply) {
        return this.lineData_(line)?.plies.find((p) => p.ply === ply) ?? null;
    }

    // The judgement of move `ply` of line `line` (null: none, or not analysed).
    judgementAt(line, ply) {
        return this.plyAt_(line, ply)?.judgement ?? null;
    }

    // The arrows for the board: the engine's move in the position shown (the next ply's `best`);
    // along the computer's own line, that line's next move.
    arrows(view = this.view_) {
        if (view.onSide) {
            const next = view.side?.engine ? view.side.moves[view.ply] : null;
            return next ? [next] : [];
        }
        const best = this.plyAt_(view.line, view.ply + 1)?.best;
        return best ? [best] : [];
    }

    setState_(state) {
        this.state_ = state;
        this.host_.dataset.state = state;
        this.render_();
    }

    // The first read of the analysis: not analysed yet → ask for it when the game page said so,
    // else offer the button; a failure is shown.
    load_() {
        return this.read_(() => {
            if (takeAsk(this.gameId_)) {
                this.ask_();
            } else {
                this.setState_('none');
            }
        }, (r) => {
            this.note_ = r.error;
            this.setState_('failed');
        });
    }

    // GET the analysis; `notAnalysed()` or `failed(r)` when it is not there (unless the panel
    // was left meanwhile).
    async read_(notAnalysed, failed) {
        const r = await fetchAnalysis(this.gameId_);
        if (this.stopped_) {
            return;
        }
        if (r.ok) {
            this.take_(r.value);
        } else if (r.code === 'not_analysed') {
            notAnalysed();
        } else {
            failed(r);
        }
    }

    // An answer of GET or POST: the analysis, or how far it has come.
    take_(a, fromPost = false) {
        clearTimeout(this.timer_);
        if (a.status === 'done') {
            if (fromPost) {
                this.load_(); // POST's "done" carries no analysis: read it
                return;
            }
            this.a_ = a;
            this.note_ = '';
            this.setState_('done');
            this.onChange_();
            return;
        }
        this.progress_ = { status: a.status, ...(a.positions ?? { done: 0, total: 0 }) };
        this.setState_('waiting');
        this.timer_ = setTimeout(() => this.poll_(), POLL_MS);
    }

    // A read while it waits or runs: gone → it failed on the server; a failure → ask again later.
    poll_() {
        return this.read_(() => {
            this.note_ = 'The analysis did not finish: ask again.';
            this.setState_('none');
        }, () => {
            this.timer_ = setTimeout(() => this.poll_(), POLL_MS * 2); // the server is away: keep asking
        });
    }

    async ask_() {
        this.note_ = '';
        this.setState_('asking');
        const r = await requestAnalysis(this.gameId_);
        if (this.stopped_) {
            return;
        }
        if (r.ok) {
            this.take_(r.value, true);
            return;
        }
        this.note_ = r.error && !/^HTTP \d+$/.test(r.error)
            ? `${r.error[0].toUpperCase()}${r.error.slice(1)}.`.replace(/\.\.$/, '.')
            : REQUEST_ERRORS[r.code] ?? 'The server did not take the request: try again later.';
        this.setState_('none');
    }

    render_() {
        const focused = this.host_.contains(document.activeElement) ? document.activeElement.dataset.action : null;
        const parts = [h('h2', { id: 'engine-title' }, 'Computer analysis')];
        switch (this.state_) {
        case 'idle':
        case 'loading':
            parts.push(h('p', { class: 'muted' }, 'Looking for the computer\'s analysis…'));
            break;
        case 'unfinished':
            parts.push(h('p', { class: 'engine-note', 'data-note': 'after-the-game' },
                'The computer analyses a game once it is over: come back after the game.'));
            break;
        case 'empty':
            parts.push(h('p', { class: 'engine-note' }, 'No move was played: there is nothing to analyse.'));
            break;
        case 'none':
        case 'asking': {
            const b = h('button', { type: 'button', class: 'btn primary', 'data-action': 'request-analysis',
                                    disabled: this.state_ === 'asking' }, 'Request computer analysis');
            b.addEventListener('click', () => this.ask_());
            parts.push(h('p', { class: 'engine-note' }, 'The computer looks at every position of the game, judges each move '
                         + 'and shows where a better one was.'), h('div', { class: 'row' }, b));
            break;
        }
        case 'waiting': {
            const p = this.progress_;
            const words = p.status === 'running' ? 'Analysing…' : 'Waiting for the computer…';
            parts.push(h('p', { class: 'engine-progress', role: 'status', 'data-done': p.done, 'data-total': p.total },
                           `${words} ${p.done} of ${plural(p.total, 'position')}`),
                       h('progress', { max: Math.max(p.total, 1), value: p.done, 'aria-label': 'Analysis progress' }));
            break;
        }
        case 'failed': {
            const b = h('button', { type: 'button', class: 'btn', 'data-action': 'reload-analysis' }, 'Try again');
            b.addEventListener('click', () => {
                this.setState_('loading');
                this.load_();
            });
            parts.push(h('div', { class: 'row' }, b));
            break;
        }
        case 'done':
            parts.push(...this.renderDone_());
            break;
        default:
            break;
        }
        if (this.note_) {
            parts.push(h('p', { class: 'engine-error', role: 'alert' }, this.note_));
        }
        this.host_.replaceChildren(...parts);
        if (focused) {
            this.host_.querySelector(`[data-action="${focused}"]`)?.focus();
        }
    }

    // The done analysis: the position shown, the move played into it, the graph, the sides.
    renderDone_() {
        const a = this.a_;
        const v = this.view_;
        const data = this.lineData_(v.line);
        if (!data) {
            return [h('p', { class: 'engine-note' }, 'No capture was made in this round: there is nothing to analyse.'),
                    this.summary_()];
        }
        const out = [];
        const shown = v.onSide ? null : (v.ply === 0 ? data.start : this.plyAt_(v.line, v.ply));
        if (v.onSide) {
            const base = v.side.base === 0 ? data.start : this.plyAt_(v.line, v.side.base);
            out.push(h('p', { class: 'engine-eval', 'data-line': 'side' }, v.side.engine
                ? `The computer's line. Where it starts, the computer's evaluation is ${evalText(base?.eval, a.variant)}.`
                : 'Your own line: the computer did not analyse it.'));
        } else if (shown) {
            const next = this.plyAt_(v.line, v.ply + 1);
            const first = a.variant === 'sniderman' ? 'ODD' : 'White';
            out.push(h('div', { class: 'engine-eval', 'data-line': 'main' },
                h('strong', { class: 'eval', title: evalUnits(a.variant), 'data-eval': JSON.stringify(shown.eval) },
                  evalText(shown.eval, a.variant)),
                h('span', { class: 'muted' }, a.variant === 'sniderman' ? ''
                  : `${first}'s winning chances ${Math.round(shown.win)} %`),
                next?.best ? h('span', { class: 'best', 'data-best': next.best }, 'Best move here: ', h('b', {}, next.best)) : ''));
        }
        const played = !v.onSide && v.ply > 0 ? this.plyAt_(v.line, v.ply) : null;
        if (played?.judgement) {
            out.push(this.comment_(data, played, v));
        }
        const wins = [data.start.win, ...data.plies.map((p) => p.win)];
        const graphCurrent = v.onSide ? v.side.base : v.ply;
        const marks = data.plies.filter((p) => p.judgement === 'mistake' || p.judgement === 'blunder')
            .map((p) => ({ index: p.ply, judgement: p.judgement }));
        const round = data.round ? ` in round ${data.round.round}` : '';
        out.push(h('figure', { class: 'eval-figure' },
            evalGraph({ wins, current: graphCurrent, marks, step: a.variant === 'sniderman',
                        onPick: (i) => this.onJump_(i),
                        label: `${a.variant === 'sniderman' ? 'ODD' : 'White'}'s winning chances after each move${round}` }),
            h('figcaption', { class: 'muted' }, a.variant === 'sniderman'
                ? `Round ${data.round.round}: up, ODD wins with best play; down, EVEN. Click to go to a move.`
                : 'White\'s winning chances move by move (up: White, down: Black). Click to go to a move.')),
        this.summary_(),
        h('p', { class: 'engine-how muted' }, a.exact ? 'Each round was solved exactly.'
            : `Each position searched to ${Number(a.nodes ?? 0).toLocaleString('en')} nodes.`));
        return out;
    }

    // The judged move shown: what it gave away and the button for the better line.
    comment_(data, p, v) {
        const a = this.a_;
        const j = JUDGEMENTS[p.judgement];
        const label = plyLabel(a.variant, p.ply, p.move);
        let words;
        if (a.variant === 'sniderman') {
            const side = data.round?.odd === p.by ? 'ODD' : 'EVEN';
            words = `${j.word}: ${side} had the round won and now loses it. ${p.best} wins.`;
        } else {
            const prev = p.ply === 1 ? data.start.win : this.plyAt_(v.line, p.ply - 1)?.win ?? 50;
            const mine = (w) => Math.round(p.by === 'white' ? w : 100 - w);
            words = `${j.word}: ${sideLabel(p.by)}'s winning chances went from ${mine(prev)} % to ${mine(p.win)} %. `
                + `Better was ${p.best}.`;
        }
        const b = h('button', { type: 'button', class: 'btn', 'data-action': 'better-line', 'data-ply': p.ply },
                    'Show better line');
        b.addEventListener('click', () => this.onLine_(p.ply - 1, p.pv.length ? p.pv : [p.best]));
        return h('div', { class: `engine-comment ${p.judgement}`, 'data-judgement': p.judgement },
            h('p', {}, h('b', {}, `${label}${j.mark}`), ' ', words), b);
    }

    // Each seat's accuracy and how many moves of each judgement it made.
    summary_() {
        const a = this.a_;
        const g = this.g_;
        const kinds = a.variant === 'sniderman' ? ['blunder'] : ['inaccuracy', 'mistake', 'blunder'];
        const seats = g.players.map((p) => p.seat);
        const head = h('tr', {}, h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'Accuracy'),
            ...kinds.map((k) => h('th', { scope: 'col', title: JUDGEMENTS[k].words },
                                  h('span', { class: `judgement ${k}`, 'aria-hidden': 'true' }, JUDGEMENTS[k].mark),
                                  h('span', { class: 'visually-hidden' }, JUDGEMENTS[k].words))));
        const rows = seats.map((seat) => {
            const name = g.players.find((p) => p.seat === seat)?.name ?? seat;
            const acc = a.accuracy[seat];
            const mine = a.plies.filter((p) => p.by === seat);
            return h('tr', { 'data-seat': seat },
                h('th', { scope: 'row' }, a.variant === 'sniderman' ? name : `${name} (${sideLabel(seat)})`),
                h('td', { 'data-accuracy': acc ?? '' }, typeof acc === 'number' ? `${acc.toFixed(1)} %` : '–'),
                ...kinds.map((k) => h('td', { 'data-count': k }, String(mine.filter((p) => p.judgement === k).length))));
        });
        return h('table', { class: 'engine-summary' }, h('thead', {}, head), h('tbody', {}, ...rows));
    }
}
