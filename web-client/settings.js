// What the player chooses for this browser (remembered in localStorage): colour theme (system,
// light, dark), board theme, sounds, Chessence powers, notifications; and the dialog that sets
// them together with the display name.
import { h } from './ui.js';

const DEFAULTS = { theme: 'system', board: 'wood', sound: 'on', powers: 'on', notify: 'off' };
export const BOARD_THEMES = [
    { id: 'wood', label: 'Wood' }, { id: 'slate', label: 'Slate' },
    { id: 'green', label: 'Green' }, { id: 'grey', label: 'Grey' },
];
const listeners = [];

export const prefs = {
    get(key) {
        try {
            return localStorage.getItem(`chessence.${key}`) ?? DEFAULTS[key];
        } catch {
            return DEFAULTS[key];
        }
    },
    on(key) {
        return this.get(key) === 'on';
    },
    set(key, value) {
        try {
            localStorage.setItem(`chessence.${key}`, value);
        } catch {
            // private mode: the choice lasts for this page only
        }
        applyToDocument();
        for (const l of listeners) {
            l(key, value);
        }
    },
    // listener(key, value) after every change.
    onChange(listener) {
        listeners.push(listener);
    },
};

// The theme attributes on <html> (boot.js does the same before the first paint).
export function applyToDocument() {
    const root = document.documentElement;
    const theme = prefs.get('theme');
    if (theme === 'light' || theme === 'dark') {
        root.dataset.theme = theme;
    } else {
        delete root.dataset.theme;
    }
    root.dataset.board = prefs.get('board');
}

function choice(name, legend, options, current, onPick) {
    const set = h('fieldset', { class: 'seg', 'data-setting': name }, h('legend', {}, legend),
        ...options.map((o) => h('label', {},
            h('input', { type: 'radio', name, value: o.id, checked: o.id === current }),
            h('span', {}, o.swatch ? h('span', { class: `swatch board-${o.id}`, 'aria-hidden': 'true' }) : '',
              o.label))));
    set.addEventListener('change', (e) => onPick(e.target.value));
    return set;
}

function toggle(name, label, help, onFlip) {
    const input = h('input', { type: 'checkbox', name, checked: prefs.on(name) });
    input.addEventListener('change', () => onFlip(input));
    return h('label', { class: 'check toggle', 'data-setting': name }, input,
             h('span', {}, h('span', {}, label), h('small', { class: 'muted' }, help)));
}

export class SettingsDialog {
    // dialog: the <dialog>; app: {me, conn, toast}; onName(name): a new name to send.
    constructor(dialog, { onName }) {
        this.dialog_ = dialog;
        this.onName_ = onName;
        dialog.addEventListener('click', (e) => {
            if (e.target === dialog) {
                dialog.close(); // a click on the backdrop
            }
        });
    }

    open({ focusName = false, name = '' } = {}) {
        this.render_(name);
        this.dialog_.showModal();
        (focusName ? this.dialog_.querySelector('#name-input')
                   : this.dialog_.querySelector('[data-action="close-settings"]'))?.focus();
    }

    close() {
        this.dialog_.close();
    }

    render_(name) {
        const input = h('input', { id: 'name-input', name: 'name', maxlength: 20, value: name,
                                   pattern: '[A-Za-z0-9 _.\\-]{1,20}', autocomplete: 'off',
                                   'aria-describedby': 'name-help', placeholder: 'Your name' });
        const form = h('form', { id: 'name-form', class: 'name-form' },
            h('label', { for: 'name-input' }, 'Your name'),
            h('div', { class: 'row nowrap' }, input, h('button', { type: 'submit', class: 'btn primary' }, 'Save')),
            h('small', { id: 'name-help', class: 'muted' }, '1 to 20 letters, digits, spaces, _ - or .'));
        form.addEventListener('submit', (e) => {
            e.preventDefault();
            if (this.onName_(input.value.trim())) {
                this.close();
            }
        });
        const theme = choice('theme', 'Colours', [{ id: 'system', label: 'System' }, { id: 'light', label: 'Light' },
            { id: 'dark', label: 'Dark' }], prefs.get('theme'), (v) => prefs.set('theme', v));
        const board = choice('board', 'Board', BOARD_THEMES.map((t) => ({ ...t, swatch: true })),
                             prefs.get('board'), (v) => prefs.set('board', v));
        const sound = toggle('sound', 'Sounds', 'moves, captures, check, start and end, low time',
                             (i) => prefs.set('sound', i.checked ? 'on' : 'off'));
        const powers = toggle('powers', 'Chessence powers', 'marks on each man: rook, bishop, knight',
                              (i) => prefs.set('powers', i.checked ? 'on' : 'off'));
        const notify = toggle('notify', 'Notify me', 'when it is my move and this tab is hidden', (i) => {
            if (!i.checked) {
                prefs.set('notify', 'off');
                return;
            }
            prefs.set('notify', 'on');
            if ('Notification' in window && Notification.permission === 'default') {
                Notification.requestPermission().catch(() => {});
            }
        });
        const close = h('button', { type: 'button', class: 'btn', 'data-action': 'close-settings' }, 'Close');
        close.addEventListener('click', () => this.close());
        this.dialog_.replaceChildren(h('div', { class: 'dialog-body' },
            h('h2', { id: 'settings-title' }, 'You and this browser'), form, theme, board, sound, powers, notify,
            h('div', { class: 'row end' }, close)));
    }
}
