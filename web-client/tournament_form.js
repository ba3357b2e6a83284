// The form that creates an arena (accounts only): name, game, rules, clock, duration, start, rated,
// berserk, a private join code. It posts lichess's form fields to POST /api/tournament with the
// session token and goes to the new tournament's page; a refusal shows its code and words.
import { createTournament } from './api.js';
import { createBody } from './protocol_tournament.js';
import { VARIANTS } from './protocol.js';
import { h, variantLabel } from './ui.js';

const number = (name, value, min, max, step = 1) =>
    h('input', { name, type: 'number', value, min, max, step, inputmode: step === 1 ? 'numeric' : 'decimal', required: true });
const field = (label, input) => h('label', { class: 'field' }, label, input);
const check = (name, label, checked) => h('label', { class: 'check' },
    h('input', { type: 'checkbox', name, checked }), ' ', label);

export function tournamentForm(app) {
    const variant = h('select', { name: 'variant' },
        ...VARIANTS.map((v) => h('option', { value: v }, variantLabel(v))));
    const rules = h('select', { name: 'rules' }, h('option', { value: 'house' }, 'House rules'),
                    h('option', { value: 'strict' }, 'Strict rules'));
    const rulesField = field('Rules', rules);
    variant.addEventListener('change', () => {
        rulesField.hidden = variant.value === 'sniderman'; // Sniderman has no draw rules to choose
    });
    const error = h('p', { class: 'form-error', role: 'alert', hidden: true });
    const submit = h('button', { type: 'submit', class: 'btn primary', 'data-action': 'create-tournament' }, 'Create the arena');
    const form = h('form', { class: 'create tournament-form', 'data-form': 'tournament' },
        field('Name', h('input', { name: 'name', maxlength: 60, placeholder: 'Arena', autocomplete: 'off' })),
        h('div', { class: 'row' }, field('Game', variant), rulesField),
        h('div', { class: 'row' }, field('Minutes per player', number('minutes', 3, 0, 180, 0.25)),
          field('Increment (seconds)', number('increment', 2, 0, 180))),
        h('div', { class: 'row' }, field('Duration (minutes, 20–180)', number('duration', 45, 20, 180)),
          field('Starts in (minutes)', number('wait', 5, 0, 10080))),
        h('div', { class: 'row' }, check('rated', 'Rated', true), check('berserkable', 'Berserk allowed', true)),
        field('Join code (leave empty for a public arena)',
              h('input', { name: 'password', maxlength: 64, autocomplete: 'off' })),
        error, h('div', { class: 'row' }, submit));
    form.addEventListener('submit', async (e) => {
        e.preventDefault();
        const f = form.elements;
        error.hidden = true;
        submit.disabled = true;
        const r = await createTournament(createBody({
            name: f.name.value.trim(), variant: f.variant.value, rules: f.rules.value, minutes: f.minutes.value,
            increment: f.increment.value, duration: f.duration.value, waitMinutes: f.wait.value,
            rated: f.rated.checked, berserkable: f.berserkable.checked, password: f.password.value.trim(),
        }));
        submit.disabled = false;
        if (r.ok && r.value.id) {
            app.navigate(`/tournament/${encodeURIComponent(r.value.id)}`);
            return;
        }
        error.textContent = r.ok ? 'The server did not say which tournament it made.'
            : `${r.code ? `${r.code}: ` : ''}${r.error}`;
        error.dataset.code = r.ok ? '' : r.code;
        error.hidden = false;
    });
    return form;
}
