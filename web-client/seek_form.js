// The lobby's new-game form: game, clock, rules, side, rounds, private, rated; "Create game" and
// "Quick pairing". It starts from the last choices (seek_memory.js), or from the game a rules
// page's Play link asks for (/?game=chesica).
import { build, SNIDERMAN_ROUNDS } from './protocol.js';
import { h, plural, sideLabel, variantLabel } from './ui.js';
import { clockPicker } from './clock.js';
import { VARIANTS } from './landing.js';
import { recallSeek, rememberSeek } from './seek_memory.js';

// Short option names (a long one was cut off in the closed select); the note says what each means.
const RULES_NOTES = { house: 'A draw on the third repetition of a position, and after 100 moves in a row without a capture.',
                      strict: 'Only the rules of the sources: no draw by repetition or by 100 moves.' };

// {element, choose(variant), setAccount(bool)}: send(message) sends a seek or a quick pairing
// request; choose(v) selects a game and brings the form into view with "Create game" focused (the
// intro's Play); onComputer() opens "Play the computer" with its own last choices; setAccount(false)
// (a guest) disables Rated with a hint, since rated games are for accounts.
export function seekForm({ send, onComputer }) {
    const form = h('form', { class: 'card create', 'aria-labelledby': 'create-title' });
    const variant = h('fieldset', { class: 'seg' }, h('legend', {}, 'Game'),
        ...VARIANTS.map((v, i) => h('label', {},
            h('input', { type: 'radio', name: 'variant', value: v, checked: i === 0 ? '' : null }),
            h('span', {}, variantLabel(v)))));
    const rulesNote = h('small', { class: 'form-note', 'data-rules-note': '' });
    const rules = h('label', { class: 'field rules-field' }, 'Rules ',
        h('select', { name: 'rules' }, h('option', { value: 'house' }, 'House rules'),
          h('option', { value: 'strict' }, 'Strict rules')), rulesNote);
    const side = h('fieldset', { class: 'seg side' }, h('legend', {}, 'Play as'));
    const rounds = h('label', { class: 'field rounds' }, 'Rounds ',
        h('select', { name: 'rounds' }, ...SNIDERMAN_ROUNDS.map((r) =>
            h('option', { value: r, selected: r === 3 ? '' : null }, `${plural(r, 'round')} (first to win ${(r + 1) / 2})`))));
    const note = h('p', { class: 'form-note' }, 'Sniderman has no draws and no colours: each round one player names the object, '
        + 'the other chooses ODD or EVEN.');
    const clock = clockPicker();
    const priv = h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'private' }),
                   ' Private (invitation link only)');
    // Rated games need an account on both sides (account.js, issue 16).
    const ratedHint = h('small', { class: 'form-note', id: 'rated-hint', 'data-rated-hint': '' },
                        'Rated games are for accounts: sign in or register (top right) to play them.');
    const rated = h('div', { class: 'rated-field' },
                    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'rated' }), ' Rated'), ratedHint);
    const create = h('button', { type: 'submit', class: 'btn primary', 'data-action': 'create' }, 'Create game');
    const quick = h('button', { type: 'button', class: 'btn', 'data-action': 'quick' }, 'Quick pairing');
    const computer = h('button', { type: 'button', class: 'btn', 'data-action': 'computer' }, 'Play the computer');
    computer.addEventListener('click', () => onComputer());
    form.append(h('div', { class: 'form-head' }, h('h2', { id: 'create-title' }, 'New game'), computer),
                variant, clock.element, rules, side, rounds, note, priv, rated,
                h('div', { class: 'row' }, create, quick));
    const refreshSides = () => {
        const v = form.elements.variant.value;
        // Sniderman has no fixed sides: a coin names the first namer, ODD/EVEN is chosen each round.
        const sides = v === 'sniderman' ? ['random'] : ['random', 'white', 'black'];
        side.replaceChildren(h('legend', {}, 'Play as'), ...sides.map((s, i) => h('label', {},
            h('input', { type: 'radio', name: 'side', value: s, checked: i === 0 ? '' : null }),
            h('span', {}, sideLabel(s)))));
        side.hidden = v === 'sniderman';
        rounds.hidden = v !== 'sniderman';
        note.hidden = v !== 'sniderman';
        // Sniderman has no draw rules: the rule set does not apply.
        rules.hidden = v === 'sniderman';
    };
    const refreshRules = () => {
        rulesNote.textContent = RULES_NOTES[form.elements.rules.value];
    };
    form.addEventListener('change', (e) => {
        if (e.target.name === 'variant') {
            refreshSides();
        }
        refreshRules();
    });
    // The last choices, or the game a rules page's "Play" link asks for.
    const last = recallSeek();
    const asked = new URLSearchParams(location.search).get('game');
    form.elements.variant.value = VARIANTS.includes(asked) ? asked : last.variant ?? 'chessence';
    refreshSides();
    if (last.rules) {
        form.elements.rules.value = last.rules;
    }
    if (last.side && form.elements.variant.value !== 'sniderman') {
        form.elements.side.value = last.side;
    }
    if (last.rounds) {
        form.elements.rounds.value = String(last.rounds);
    }
    if ('clock' in last) {
        clock.set(last.clock);
    }
    form.elements.rated.checked = !!last.rated;
    // Until the welcome says otherwise, a guest: what the server would refuse cannot be ticked.
    let wantsRated = !!last.rated;
    const setAccount = (account) => {
        const box = form.elements.rated;
        if (!box.disabled) {
            wantsRated = box.checked;
        }
        box.disabled = !account;
        box.checked = account && wantsRated;
        if (account) {
            box.removeAttribute('aria-describedby');
        } else {
            box.setAttribute('aria-describedby', 'rated-hint');
        }
        ratedHint.hidden = account;
    };
    setAccount(false);
    refreshRules();
    const options = () => ({ variant: form.elements.variant.value,
                             rules: form.elements.variant.value === 'sniderman' ? 'house' : form.elements.rules.value,
                             side: form.elements.side.value, rounds: Number(form.elements.rounds.value),
                             isPrivate: form.elements.private.checked, clock: clock.value(),
                             rated: form.elements.rated.checked });
    form.addEventListener('submit', (e) => {
        e.preventDefault();
        rememberSeek(options());
        send(build.seekCreate(options()));
    });
    quick.addEventListener('click', () => {
        rememberSeek(options());
        send(build.quickPair(options()));
    });
    const choose = (v) => {
        form.elements.variant.value = v;
        refreshSides();
        form.scrollIntoView({ block: 'start', behavior: 'smooth' });
        create.focus({ preventScroll: true });
    };
    return { element: form, choose, setAccount };
}
