// Time on the game page: the two clocks beside the player bars (counting down from the server's last
// reading; tenths under 10 s; a warning colour and a short sound at low time), each player's lag,
// the countdowns of the first-move abort and of a claim against a player who left, and the
// controls that apply to time — abort, takeback, more time, claims — shown exactly when they apply.
// The client never sends a time: it shows what the server measured.
import { h, sideLabel } from './ui.js';

// The seek form's presets (protocol `clock` objects; null: unlimited).
export const CLOCK_PRESETS = [
    { label: '1+0', clock: { initial: 60, increment: 0 } },
    { label: '3+2', clock: { initial: 180, increment: 2 } },
    { label: '5+3', clock: { initial: 300, increment: 3 } },
    { label: '10+5', clock: { initial: 600, increment: 5 } },
    { label: '15+10', clock: { initial: 900, increment: 10 } },
    { label: '30+20', clock: { initial: 1800, increment: 20 } },
    { label: '1 day', clock: { days: 1 } },
    { label: '3 days', clock: { days: 3 } },
    { label: '7 days', clock: { days: 7 } },
    { label: 'Unlimited', clock: null },
];
export const CORRESPONDENCE_DAYS = [1, 2, 3, 5, 7, 10, 14];

// "5+3" (initial in minutes, increment in seconds), "3 days", "Unlimited".
export function clockLabel(tc) {
    if (!tc) {
        return 'Unlimited';
    }
    if (tc.days) {
        return tc.days === 1 ? '1 day' : `${tc.days} days`;
    }
    const minutes = tc.initial / 60;
    const shown = { 0.25: '¼', 0.5: '½', 0.75: '¾' }[minutes] ?? String(+minutes.toFixed(2));
    return `${shown}+${tc.increment}`;
}

// Real time: "1:05:03", "4:59", "0:09.4" (tenths under 10 s). Correspondence: the time left to move
// in words ("2 days 3 h", "5 h 12 min", "14 min", "42 s").
export function formatClock(ms, correspondence = false) {
    const left = Math.max(0, ms);
    if (correspondence) {
        const minutes = Math.floor(left / 60000);
        const hours = Math.floor(minutes / 60);
        const days = Math.floor(hours / 24);
        if (days > 0) {
            return `${days} day${days > 1 ? 's' : ''}${hours % 24 ? ` ${hours % 24} h` : ''}`;
        }
        if (hours > 0) {
            return `${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
        }
        return minutes > 0 ? `${minutes} min` : `${Math.ceil(left / 1000)} s`;
    }
    if (left < 10000) {
        return `0:0${Math.floor(left / 1000)}.${Math.floor(left / 100) % 10}`;
    }
    const seconds = Math.floor(left / 1000);
    const mm = String(Math.floor(seconds / 60) % 60);
    const ss = String(seconds % 60).padStart(2, '0');
    return seconds >= 3600 ? `${Math.floor(seconds / 3600)}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

// What `seat` has left now: the reading counted down from when it arrived, for the running seat.
export function clockLeft(g, seat, now = performance.now()) {
    const c = g.clock;
    if (!c || typeof c[seat] !== 'number') {
        return null;
    }
    return c.running === seat ? c[seat] - (now - g.clockAt) : c[seat];
}

// Whether both seats have acted (moved, named, chosen): from then on no abort.
export function bothActed(g) {
    if (g.variant === 'sniderman') {
        return !g.match || g.match.round > 1 || g.match.phase === 'playing' || g.match.phase === 'finished';
    }
    return g.moves.length >= 2;
}

// Low time: under a tenth of the initial time, between 10 and 30 s.
const lowAt = (tc) => Math.min(30000, Math.max(10000, (tc?.initial ?? 0) * 100));

let audioAllowed = false;
addEventListener('pointerdown', () => { audioAllowed = true; }, { once: true, capture: true });
function beep() {
    if (!audioAllowed || !window.AudioContext) {
        return;
    }
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.06;
    osc.connect(gain).connect(ctx.destination);
    osc.onended = () => ctx.close();
    osc.start();
    osc.stop(ctx.currentTime + 0.18);
}

export class ClockPanel {
    // act: {abort, takebackOffer, takebackAccept, takebackDecline, moretime, claimVictory, claimDraw}
    constructor(host, act) {
        this.host_ = host;
        this.act_ = act;
        this.view_ = null;
        this.warned_ = false;
        this.timer_ = setInterval(() => this.tick_(), 100);
    }

    stop() {
        clearInterval(this.timer_);
    }

    // view: {g, seat (mine or null), nameOf(seat), bars: [.player-bar element with data-seat, …]}
    render(view) {
        this.view_ = view;
        const { g, bars } = view;
        for (const bar of bars) {
            const seat = bar.dataset.seat;
            const p = g.players.find((x) => x.seat === seat);
            bar.querySelectorAll('.clock, .lag').forEach((el) => el.remove());
            const info = bar.querySelector('.bar-info') ?? bar;
            if (p && !p.bot && typeof p.lagMs === 'number' && p.online) {
                // Labelled: a bare "28 ms" beside a name says nothing.
                const what = `${p.name}'s network lag: ${p.lagMs} ms from their browser to the server and back`;
                info.append(h('span', { class: 'lag', 'data-lag': p.lagMs, title: what, 'aria-label': what },
                              `lag ${p.lagMs} ms`));
            }
            if (g.clock) {
                const clock = h('span', { class: 'clock', 'data-clock': seat, role: 'timer',
                                          'aria-label': `${sideLabel(seat)} clock` });
                bar.insertBefore(clock, info.nextSibling);
            }
        }
        this.renderActions_();
        this.tick_();
    }

    // Clocks and countdowns move every tick; the controls are drawn again only when a countdown ends.
    tick_() {
        const v = this.view_;
        if (!v || !this.host_.isConnected) {
            return;
        }
        const now = performance.now();
        const correspondence = !!v.g.timeControl?.days;
        for (const el of v.bars.flatMap((bar) => [...bar.querySelectorAll('.clock')])) {
            const seat = el.dataset.clock;
            const left = clockLeft(v.g, seat, now);
            el.textContent = left === null ? '' : formatClock(left, correspondence);
            el.dataset.ms = String(Math.max(0, Math.round(left ?? 0)));
            const running = v.g.clock.running === seat && !v.g.result;
            el.classList.toggle('running', running);
            const low = !correspondence && left !== null && left < lowAt(v.g.timeControl) && !v.g.result;
            el.classList.toggle('low', low);
            if (low && running && seat === v.seat && !this.warned_) {
                this.warned_ = true;
                beep();
            }
        }
        let ended = false;
        for (const el of this.host_.querySelectorAll('[data-deadline]')) {
            const secs = Math.max(0, Math.ceil((Number(el.dataset.deadline) - now) / 1000));
            el.querySelector('.secs').textContent = String(secs);
            ended = ended || secs === 0;
        }
        if (ended) {
            this.renderActions_();
        }
    }

    renderActions_() {
        const { g, seat, nameOf } = this.view_;
        const now = performance.now();
        const items = [];
        const button = (label, action, onClick, cls = 'btn small', disabled = false) => {
            const b = h('button', { type: 'button', class: cls, 'data-action': action, disabled }, label);
            b.addEventListener('click', onClick);
            items.push(b);
        };
        const countdown = (deadline, before, after) => h('p', { class: 'countdown', 'data-deadline': deadline },
            before, h('span', { class: 'secs' }, String(Math.ceil((deadline - now) / 1000))), after);
        const live = !g.result;
        if (live && g.abortIn !== null && g.abortAt && g.timeControl && !g.timeControl.days) {
            const actor = g.variant === 'sniderman' ? null : g.toMove;
            const who = actor === seat ? 'You have' : actor ? `${sideLabel(actor)} has` : 'The next player has';
            // In a tournament a missed first move loses the game (docs/tournaments.md).
            items.push(countdown(g.abortAt + g.abortIn, `${who} `, g.tournamentId
                ? ' s to make the first move, or loses the game.' : ' s to make the first move, or the game is aborted.'));
        }
        const opponent = seat && g.players.find((p) => p.seat !== seat);
        if (live && seat && opponent && !opponent.online && opponent.claimIn !== null && !g.timeControl?.days
            && bothActed(g)) {
            const ready = opponent.claimAt + opponent.claimIn;
            if (ready > now + 250) {
                items.push(countdown(ready, `${opponent.name} left the game — you can claim victory in `, ' s.'));
            } else {
                items.push(h('p', { class: 'countdown gone' }, `${opponent.name} left the game.`));
                button('Claim victory', 'claim-victory', this.act_.claimVictory, 'btn small primary');
                button('Call it a draw', 'claim-draw', this.act_.claimDraw);
            }
        }
        if (live && seat && !bothActed(g) && !g.tournamentId) {
            button('Abort', 'abort', this.act_.abort);
        }
        if (live && seat && g.variant !== 'sniderman') {
            if (g.takebackOffer && g.takebackOffer !== seat) {
                items.push(h('p', { class: 'offer' }, `${nameOf(g.takebackOffer)} asks to take back a move.`));
                button('Accept takeback', 'takeback-accept', this.act_.takebackAccept, 'btn small primary');
                button('Decline', 'takeback-decline', this.act_.takebackDecline);
            } else {
                const mine = g.takebackOffer === seat;
                const needed = g.toMove === seat ? 2 : 1;
                if (mine || g.moves.length >= needed) {
                    button(mine ? 'Takeback asked' : 'Takeback', 'takeback-offer', this.act_.takebackOffer,
                           'btn small', mine);
                }
            }
        }
        if (live && seat && g.timeControl && !g.timeControl.days) {
            button('+15 s', 'moretime', this.act_.moretime, 'btn small');
            items.at(-1).title = `Give ${opponent?.name ?? 'your opponent'} 15 seconds`;
        }
        this.host_.replaceChildren(...items);
        this.host_.hidden = items.length === 0;
    }
}

// The seek form's clock: one of the presets, or a custom real-time or correspondence control.
// value() is the protocol `clock` object (null: unlimited).
export function clockPicker() {
    const radio = (value, label, checked = false) => h('label', {},
        h('input', { type: 'radio', name: 'clock', value, checked: checked ? '' : null }), h('span', {}, label));
    const presets = h('fieldset', { class: 'seg clock-presets' }, h('legend', {}, 'Clock'),
        ...CLOCK_PRESETS.map((p, i) => radio(String(i), p.label, p.clock === null)), radio('custom', 'Custom'));
    const kind = h('select', { name: 'clock_kind', 'aria-label': 'Kind of clock' },
        h('option', { value: 'real' }, 'Real time'), h('option', { value: 'days' }, 'Correspondence'));
    const minutes = h('input', { type: 'number', name: 'clock_minutes', min: 0, max: 180, step: 0.25, value: 5 });
    const increment = h('input', { type: 'number', name: 'clock_increment', min: 0, max: 180, step: 1, value: 3 });
    const days = h('select', { name: 'clock_days' },
        ...CORRESPONDENCE_DAYS.map((d) => h('option', { value: d, selected: d === 3 ? '' : null }, clockLabel({ days: d }))));
    const real = h('div', { class: 'row' }, h('label', { class: 'field' }, 'Minutes per player', minutes),
                   h('label', { class: 'field' }, 'Increment (seconds)', increment));
    const corr = h('label', { class: 'field', hidden: true }, 'Time for each move', days);
    const note = h('p', { class: 'form-note', 'aria-live': 'polite' });
    const custom = h('div', { class: 'custom-clock', hidden: true }, kind, real, corr, note);
    const element = h('div', { class: 'clock-picker' }, presets, custom);
    const value = () => {
        const chosen = presets.querySelector('input:checked')?.value ?? String(CLOCK_PRESETS.length - 1);
        if (chosen !== 'custom') {
            return CLOCK_PRESETS[Number(chosen)].clock;
        }
        if (kind.value === 'days') {
            return { days: Number(days.value) };
        }
        return { initial: Math.round(Number(minutes.value) * 60), increment: Math.round(Number(increment.value)) };
    };
    const refresh = () => {
        custom.hidden = presets.querySelector('input:checked')?.value !== 'custom';
        real.hidden = kind.value !== 'real';
        corr.hidden = kind.value !== 'days';
        const c = value();
        const short = c && !c.days && c.initial + 40 * c.increment < 15;
        note.textContent = short ? 'Too short: minutes × 60 + 40 × increment must be at least 15 seconds.'
            : c ? `Each player: ${clockLabel(c)}${c.days ? ' for each move' : ''}.` : '';
    };
    // Shows `tc` (a preset's clock, a custom one, or null for unlimited).
    const set = (tc) => {
        const same = (c) => (c === null ? tc === null : !!tc && c.days === tc.days && c.initial === tc.initial
                                                       && c.increment === tc.increment);
        const preset = CLOCK_PRESETS.findIndex((p) => same(p.clock));
        presets.querySelector(`input[value="${preset >= 0 ? preset : 'custom'}"]`).checked = true;
        if (preset < 0) {
            kind.value = tc.days ? 'days' : 'real';
            if (tc.days) {
                days.value = String(tc.days);
            } else {
                minutes.value = String(tc.initial / 60);
                increment.value = String(tc.increment);
            }
        }
        refresh();
    };
    element.addEventListener('change', refresh);
    element.addEventListener('input', refresh);
    refresh();
    return { element, value, set };
}
