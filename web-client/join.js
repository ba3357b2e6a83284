// /join/<seek_id>: the page an invitation link opens. It says who invites, to which game, with
// which colour, rules, rounds (Sniderman) and clock, until when the invitation is valid, and where
// to learn the game; then accepts it.
import { build } from './protocol.js';
import { fetchSeek } from './api.js';
import { clockLabel } from './clock.js';
import { h, keyRule, plural, sideLabel, variantTitle } from './ui.js';
import { setTitle } from './notify.js';

const GONE = 'This invitation has expired, was cancelled, or was already accepted.';

// "You play Black" for a seek whose creator plays `side`.
function yourColour(seek) {
    if (seek.variant === 'sniderman') {
        return 'No colours: each round one of you names the object and the other chooses ODD or EVEN. '
            + 'A coin decides who names first.';
    }
    if (seek.side === 'random') {
        return 'Colours are drawn at random when the game starts.';
    }
    return `You play ${sideLabel(seek.side === 'white' ? 'black' : 'white')}; ${seek.creator.name} plays ${sideLabel(seek.side)}.`;
}

function rulesText(seek) {
    if (seek.variant === 'sniderman') {
        return `${plural(seek.rounds ?? 3, 'round')}: the first to win ${((seek.rounds ?? 3) + 1) / 2} wins the match. No draws.`;
    }
    return seek.rules === 'strict'
        ? 'Strict rules: only the rules of the sources; no draw by repetition or by 100 moves.'
        : 'House rules: a draw on the third repetition of a position and after 100 moves in a row without a capture.';
}

// The seek's time control in words: real time ("5+3: 5 minutes each, plus 3 seconds per move"),
// correspondence ("3 days per move") or none.
function clockText(clock) {
    if (!clock || typeof clock !== 'object') {
        return 'No clock: take your time.';
    }
    if (clock.days) {
        return `Correspondence: ${clockLabel(clock)} per move.`;
    }
    const minutes = +(clock.initial / 60).toFixed(2);
    return `${clockLabel(clock)}: ${plural(minutes, 'minute')} each, plus ${plural(clock.increment, 'second')} per move.`;
}

export class JoinPage {
    constructor(app, root, seekId) {
        this.app_ = app;
        this.root_ = root;
        this.seekId_ = seekId ?? '';
    }

    enter() {
        setTitle('Invitation — Chessence');
        this.details_ = h('div', { class: 'invite-details', 'aria-live': 'polite' }, h('p', {}, 'Loading the invitation…'));
        this.status_ = h('p', { class: 'join-status', role: 'status' });
        this.accept_ = h('button', { class: 'btn primary big', type: 'button', 'data-action': 'join', disabled: true },
                         'Accept and play');
        this.accept_.addEventListener('click', () => {
            if (!this.app_.conn.send(build.seekAccept(this.seekId_))) {
                this.status_.textContent = 'Not connected yet — try again in a moment.';
            }
        });
        this.root_.append(h('section', { class: 'card join', 'aria-labelledby': 'join-title' },
            h('h1', { id: 'join-title' }, 'An invitation to play'), this.details_, this.status_,
            h('div', { class: 'row center' }, this.accept_, h('a', { class: 'btn', href: '/' }, 'Back to the lobby'))));
        fetchSeek(this.seekId_).then((r) => this.show_(r));
    }

    leave() {}

    show_(r) {
        if (!r.ok) {
            this.details_.replaceChildren(h('p', { class: 'gone' }, r.status === 404 ? GONE : r.error));
            return;
        }
        const seek = r.value;
        this.seek_ = seek;
        const title = variantTitle(seek.variant);
        setTitle(`${seek.creator.name} invites you to ${title} — Chessence`);
        const until = seek.expiresAt ? new Date(seek.expiresAt * 1000) : null;
        this.details_.replaceChildren(
            h('p', { class: 'invite-lead' }, h('b', { 'data-inviter': '' }, seek.creator.name),
              ' invites you to a game of ', h('b', { 'data-variant': seek.variant }, title), '.'),
            h('dl', { class: 'invite-facts' },
                h('dt', {}, 'Colour'), h('dd', { 'data-fact': 'colour' }, yourColour(seek)),
                h('dt', {}, 'Rules'), h('dd', { 'data-fact': 'rules' }, rulesText(seek)),
                h('dt', {}, 'Clock'), h('dd', { 'data-fact': 'clock' }, clockText(seek.clock)),
                until ? h('dt', {}, 'Valid until') : '',
                until ? h('dd', { 'data-fact': 'expires' }, until.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })) : ''),
            h('p', { class: 'key-rule' }, keyRule(seek.variant), ' ',
              h('a', { href: `/learn/${seek.variant}`, 'data-action': 'rules' }, `Learn ${title} first`)));
        this.accept_.disabled = false;
    }

    onError(err) {
        const text = { no_such_seek: GONE, own_seek: 'This is your own invitation: send the link to your opponent.' }[err.code];
        if (text) {
            this.status_.textContent = text;
            return true;
        }
        return false;
    }
}
