// "Play the computer": a dialog over any page (the lobby, a rules page, a finished game) with the
// game, the computer's level (each with a line saying how it plays), colour, clock and Sniderman's
// rounds. Casual only: the server refuses rated or private games against the computer. The game
// starts at once (game_started, as for an accepted seek); the last choices are remembered.
import { build, SNIDERMAN_ROUNDS } from './protocol.js';
import { h, plural, sideLabel, variantLabel } from './ui.js';
import { clockPicker } from './clock.js';
import { VARIANTS } from './landing.js';
import { recallComputer, rememberComputer } from './seek_memory.js';

// What each level plays like, in a line (docs/protocol.md "Playing the computer").
export const LEVELS = [
    'Beginner — blunders often',
    'Novice — misses simple tactics',
    'Casual — sees the obvious threats',
    'Club player — few outright mistakes',
    'Strong club player — punishes slips',
    'Expert — hard to beat',
    'Master — rarely errs',
    'Full strength — the engine at its best',
];

export const BUSY_TEXT = 'The computer is busy, try again in a moment.';

export class ComputerDialog {
    // app: the app record (conn, toast); the dialog is appended to document.body once.
    constructor(app) {
        this.app_ = app;
        this.waiting_ = false;
        this.el_ = h('dialog', { class: 'computer-dialog', 'aria-labelledby': 'computer-title',
                                 'data-dialog': 'computer' });
        this.build_();
        document.body.append(this.el_);
    }

    get open() {
        return this.el_.open;
    }

    build_() {
        const form = h('form', { class: 'dialog-body computer-form', method: 'dialog' });
        const variant = h('fieldset', { class: 'seg' }, h('legend', {}, 'Game'),
            ...VARIANTS.map((v) => h('label', {},
                h('input', { type: 'radio', name: 'variant', value: v }), h('span', {}, variantLabel(v)))));
        const levels = h('fieldset', { class: 'levels' }, h('legend', {}, 'Level'),
            ...LEVELS.map((text, i) => h('label', { class: 'level' },
                h('input', { type: 'radio', name: 'level', value: String(i + 1) }),
                h('span', { class: 'level-n' }, String(i + 1)), h('span', { class: 'level-text' }, text))));
        const side = h('fieldset', { class: 'seg side' }, h('legend', {}, 'Play as'),
            ...['white', 'random', 'black'].map((s) => h('label', {},
                h('input', { type: 'radio', name: 'side', value: s }), h('span', {}, sideLabel(s)))));
        const rounds = h('label', { class: 'field rounds' }, 'Rounds ',
            h('select', { name: 'rounds' }, ...SNIDERMAN_ROUNDS.map((r) =>
                h('option', { value: r }, `${plural(r, 'round')} (first to win ${(r + 1) / 2})`))));
        const clock = clockPicker();
        this.message_ = h('p', { class: 'form-note computer-message', role: 'alert', 'data-computer-message': '' });
        this.start_ = h('button', { type: 'submit', class: 'btn primary', 'data-action': 'start-computer' },
                        'Play the computer');
        const cancel = h('button', { type: 'button', class: 'btn', 'data-action': 'cancel-computer' }, 'Cancel');
        cancel.addEventListener('click', () => this.close());
        const close = h('button', { type: 'button', class: 'btn ghost close', 'aria-label': 'Close' }, '×');
        close.addEventListener('click', () => this.close());
        form.append(h('div', { class: 'dialog-head' }, h('h2', { id: 'computer-title' }, 'Play the computer'), close),
            h('p', { class: 'form-note' }, 'A casual game: it starts at once and does not change your rating.'),
            variant, levels, side, rounds, clock.element, this.message_,
            // Kept at the dialog's bottom edge while the rest scrolls: on a phone the start button is
            // in view at once, not under the eight levels.
            h('div', { class: 'row dialog-actions' }, this.start_, cancel));
        form.addEventListener('change', (e) => {
            if (e.target.name === 'variant') {
                this.refresh_();
            }
        });
        form.addEventListener('submit', (e) => {
            e.preventDefault();
            this.submit_();
        });
        this.el_.addEventListener('close', () => {
            this.waiting_ = false;
        });
        this.form_ = form;
        this.side_ = side;
        this.rounds_ = rounds;
        this.clock_ = clock;
        this.el_.append(form);
    }

    // Sniderman has no colours (a coin names the first namer) but rounds.
    refresh_() {
        const sniderman = this.form_.elements.variant.value === 'sniderman';
        this.side_.hidden = sniderman;
        this.rounds_.hidden = !sniderman;
    }

    // Opens the form from the last choices, with `variant` selected if given.
    show(variant) {
        const last = recallComputer();
        const f = this.form_.elements;
        f.variant.value = VARIANTS.includes(variant) ? variant : last.variant ?? 'chessence';
        f.level.value = String(last.level ?? 1);
        f.side.value = last.side ?? 'random';
        f.rounds.value = String(last.rounds ?? 3);
        this.clock_.set('clock' in last ? last.clock : null);
        this.refresh_();
        this.setBusy_(false);
        this.message_.textContent = '';
        if (!this.el_.open) {
            this.el_.showModal();
        }
        // Ready to start, with the form read from its title down (a phone scrolls the rest).
        this.start_.focus({ preventScroll: true });
        this.el_.scrollTop = 0;
    }

    close() {
        if (this.el_.open) {
            this.el_.close();
        }
    }

    options_() {
        const f = this.form_.elements;
        return { variant: f.variant.value, level: Number(f.level.value), side: f.side.value,
                 rounds: Number(f.rounds.value), clock: this.clock_.value() };
    }

    submit_() {
        const options = this.options_();
        rememberComputer(options);
        if (!this.app_.conn.send(build.computerGame(options))) {
            this.message_.textContent = 'Not connected yet — try again in a moment.';
            return;
        }
        this.message_.textContent = '';
        this.setBusy_(true);
    }

    setBusy_(busy) {
        this.waiting_ = busy;
        this.start_.disabled = busy;
        this.start_.textContent = busy ? 'Starting…' : 'Play the computer';
    }

    // The game started: the dialog has done its work.
    started() {
        this.close();
    }

    // An error answering the form's request: shown in the form (the toast is under the modal
    // dialog). True if the dialog took it.
    error(err) {
        if (!this.el_.open || !this.waiting_) {
            return false;
        }
        this.setBusy_(false);
        this.message_.textContent = err.code === 'bots_busy' ? BUSY_TEXT : err.message || err.code.replace(/_/g, ' ');
        return true;
    }
}

// The settings of a finished game against the computer, to play it again (same game, rules,
// level, clock, rounds; the colour last chosen in the form). Null if the game had no computer.
export function againOptions(g) {
    const bot = g.players.find((p) => p.bot);
    if (!bot) {
        return null;
    }
    return { variant: g.variant, rules: g.rules, level: bot.level, side: recallComputer().side ?? 'random',
             rounds: g.match?.rounds, clock: g.timeControl };
}
