// A chat box: the game page's and a tournament page's (game.css's .chat). A card with a title (and
// whatever the host puts beside it), the log of lines, oldest first, and a one-line form. It knows
// no protocol and no socket: the host gives it the lines and is handed what the user typed.
import { h } from './ui.js';

const MAX_CHARS = 300;  // the server's limit (docs/protocol.md, "Limits")

export class ChatBox {
    // `onSend(text)` is true when the line went out: the input is then emptied. `headExtra`: nodes
    // beside the title (the game page's switch of the spectators' chat).
    constructor({ title = 'Chat', onSend, headExtra = [] }) {
        this.log = h('ol', { class: 'chat-log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Chat messages' });
        this.input = h('input', { name: 'text', maxlength: MAX_CHARS, placeholder: 'Say something…',
                                  'aria-label': 'Chat message', autocomplete: 'off', enterkeyhint: 'send' });
        this.send = h('button', { class: 'btn', type: 'submit' }, 'Send');
        this.form = h('form', { class: 'chat-form' }, this.input, this.send);
        this.form.addEventListener('submit', (e) => {
            e.preventDefault();
            const text = this.input.value.trim();
            if (text && !this.input.disabled && onSend(text)) {
                this.input.value = '';
            }
        });
        this.title = h('span', { class: 'chat-title' }, title);
        this.error = h('p', { class: 'chat-error', role: 'alert', hidden: true });
        this.el = h('section', { class: 'card chat', 'aria-label': 'Chat' },
                    h('div', { class: 'chat-head' }, this.title, ...headExtra), this.log, this.error, this.form);
    }

    // Shows `lines` ({from, text, spectator?}), keeping the log at its bottom if it was there.
    renderLines(lines) {
        const log = this.log;
        const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
        log.replaceChildren(...lines.map((c) => h('li', c.spectator ? { class: 'chat-spectator' } : {},
            h('b', {}, c.from), ' ', c.text)));
        if (lines.length === 0) {
            log.append(h('li', { class: 'chat-empty' }, 'No messages yet.'));
        }
        if (atBottom) {
            log.scrollTop = log.scrollHeight;
        }
    }

    // Whether the user may write; `placeholder` says why not (or invites to write).
    setOpen(open, placeholder = 'Say something…') {
        this.input.disabled = !open;
        this.send.disabled = !open;
        this.input.placeholder = placeholder;
    }

    // A refused line's reason under the log, until the next line goes out (null: none).
    showError(message) {
        this.error.hidden = !message;
        this.error.textContent = message ?? '';
    }
}
