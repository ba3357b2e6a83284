// /learn/<game>: how to play each game, section by section, with live diagrams whose moves come
// from the server. The texts live in learn_<game>.js.
import { chessence } from './learn_chessence.js';
import { chesica } from './learn_chesica.js';
import { sniderman } from './learn_sniderman.js';
import { Diagram } from './diagram.js';
import { h, variantLabel } from './ui.js';
import { setTitle } from './notify.js';

const GAMES = { chessence, chesica, sniderman };

export class LearnPage {
    constructor(app, root, variant = 'chessence') {
        this.app_ = app;
        this.root_ = root;
        this.variant_ = GAMES[variant] ? variant : 'chessence';
    }

    enter() {
        const game = GAMES[this.variant_];
        setTitle(`Rules of ${game.title} — Chessence`);
        document.body.dataset.variant = this.variant_;
        const tabs = h('nav', { class: 'learn-tabs', 'aria-label': 'Games' }, ...Object.keys(GAMES).map((v) =>
            h('a', { href: `/learn/${v}`, class: 'tab', 'aria-current': v === this.variant_ ? 'page' : null,
                     'data-learn': v }, variantLabel(v))));
        const toc = h('nav', { class: 'learn-toc', 'aria-label': 'On this page' },
            h('ol', {}, ...game.sections.map((s) => h('li', {}, h('a', { href: `#${s.id}` }, s.title)))));
        const sections = game.sections.map((s) => {
            const body = [h('h2', { id: s.id, tabindex: -1 }, s.title), ...s.text.map((t) => h('p', {}, t))];
            if (s.diagram) {
                body.push(new Diagram({ variant: this.variant_, ...s.diagram }).el);
            }
            return h('section', { class: 'learn-section', 'aria-labelledby': s.id }, ...body);
        });
        const computer = h('button', { type: 'button', class: 'btn', 'data-action': 'play-computer' },
                           'Try it against the computer');
        computer.addEventListener('click', () => this.app_.playComputer(this.variant_));
        const play = h('p', { class: 'learn-play' }, 'Ready? ',
            h('a', { class: 'btn primary', href: `/?game=${this.variant_}`, 'data-action': 'play' }, `Play ${game.title}`),
            ' ', computer);
        this.root_.append(h('article', { class: 'learn', 'data-variant': this.variant_ },
            tabs, h('h1', {}, game.title), h('p', { class: 'learn-intro' }, game.intro), toc, ...sections, play));
        this.root_.addEventListener('click', (e) => {
            const a = e.target.closest?.('.learn-toc a');
            if (a) {
                e.preventDefault();
                const target = document.getElementById(a.getAttribute('href').slice(1));
                target?.scrollIntoView({ behavior: 'smooth', block: 'start' });
                target?.focus({ preventScroll: true });
            }
        });
    }

    leave() {}
}
