// The tournaments page (/tournaments, issue 43): the arenas starting soon (the next first), those
// being played and those finished, from GET /api/tournament; and for accounts the form that creates
// an arena (tournament_form.js). The list is read again every 30 s and its times tick locally.
import { fetchTournaments } from './api.js';
import { h, variantLabel } from './ui.js';
import { clockLabel } from './clock.js';
import { setTitle } from './notify.js';
import { tournamentForm } from './tournament_form.js';
import { durationText } from './tournament_view.js';

const REFRESH_MS = 30000;

const SECTIONS = [
    { status: 'created', title: 'Starting soon', when: 'Starts in', order: (a, b) => a.startsAt - b.startsAt },
    { status: 'started', title: 'Playing now', when: 'Ends in', order: (a, b) => a.finishesAt - b.finishesAt },
    { status: 'finished', title: 'Finished', when: 'Winner', order: (a, b) => b.finishesAt - a.finishesAt },
];

export class TournamentsPage {
    constructor(app, root) {
        this.app_ = app;
        this.root_ = root;
        this.list_ = null;
        this.error_ = '';
    }

    enter() {
        setTitle('Tournaments — Chessence');
        this.lists_ = h('div', { class: 'tournament-lists' }, h('p', {}, 'Loading the tournaments…'));
        this.formHost_ = h('section', { class: 'card tournament-create', 'aria-labelledby': 'create-title' });
        this.root_.append(h('div', { class: 'tournaments-page' },
                            h('h1', {}, 'Tournaments'), this.lists_, this.formHost_));
        this.renderForm_();
        this.load_();
        this.refresh_ = setInterval(() => this.load_(), REFRESH_MS);
        this.ticker_ = setInterval(() => this.tick_(), 1000);
    }

    leave() {
        this.left_ = true;
        clearInterval(this.refresh_);
        clearInterval(this.ticker_);
    }

    // The account is known only after the welcome's handlers have all run.
    onWelcome() {
        setTimeout(() => !this.left_ && this.renderForm_());
    }

    async load_() {
        const r = await fetchTournaments();
        if (this.left_) {
            return;
        }
        if (r.ok) {
            this.list_ = r.value;
            this.error_ = '';
        } else {
            this.error_ = r.error;
        }
        this.renderLists_();
    }

    renderForm_() {
        const signedIn = !!document.body.dataset.account;
        this.formHost_.replaceChildren(h('h2', { id: 'create-title' }, 'Create an arena'),
            signedIn ? tournamentForm(this.app_)
                : h('p', { class: 'empty', 'data-hint': 'sign-in' }, 'Sign in (top right) to create a tournament.'));
    }

    renderLists_() {
        const parts = [];
        if (this.error_) {
            parts.push(h('p', { class: 'form-error', role: 'alert' }, `The tournaments could not be read: ${this.error_}`));
        }
        for (const s of SECTIONS) {
            const rows = [...(this.list_?.[s.status] ?? [])].sort(s.order);
            parts.push(h('section', { class: 'card tournament-list', 'data-status': s.status, 'aria-label': s.title },
                h('h2', {}, s.title),
                rows.length === 0 ? h('p', { class: 'empty' }, 'None.')
                    : h('table', { class: 'list' },
                        h('thead', {}, h('tr', {}, ...['Name', 'Game', 'Clock', 'Duration', 'Players', s.when]
                            .map((t) => h('th', { scope: 'col' }, t)))),
                        h('tbody', {}, ...rows.map((t) => this.row_(t, s))))));
        }
        this.lists_.replaceChildren(...parts);
        this.tick_();
    }

    row_(t, section) {
        const when = section.status === 'finished' ? h('td', {}, t.winner ?? '—')
            : h('td', { 'data-until': section.status === 'created' ? t.startsAt : t.finishesAt }, '');
        return h('tr', { 'data-tournament': t.id, 'data-variant': t.variant },
            h('td', {}, h('a', { href: `/tournament/${encodeURIComponent(t.id)}` }, t.name || 'Arena'),
              t.isPrivate ? h('span', { class: 'badge' }, 'private') : '', t.rated ? '' : h('span', { class: 'badge' }, 'casual')),
            h('td', {}, variantLabel(t.variant)), h('td', {}, t.clock ? clockLabel(t.clock) : '—'),
            h('td', {}, `${t.minutes} min`), h('td', {}, String(t.players)), when);
    }

    // "4:05" to go, from the server's times (ms since the epoch) against this computer's clock.
    tick_() {
        for (const el of this.lists_.querySelectorAll('[data-until]')) {
            const left = Number(el.dataset.until) - Date.now();
            el.textContent = left > 0 ? durationText(left) : 'now'; // the list is a little behind
        }
    }
}
