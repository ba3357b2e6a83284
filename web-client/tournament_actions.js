// The tournament page's buttons as fit the viewer: Join (with the join code of a private arena),
// Resume for a paused player, Withdraw, Pause; disabled with a hint for guests; the player's game;
// and the last refusal (code and words) beside them.
import { buildTournament } from './protocol_tournament.js';
import { h } from './ui.js';
import { gamePath } from './api.js';

// view: {info, me (the viewer's line or null), error ({code, message} or null), signedIn, send(msg)}
export function tournamentActions({ info, me, error, signedIn, send }) {
    const parts = [];
    const button = (label, action, msg, primary = false) => {
        const b = h('button', { type: 'button', class: primary ? 'btn primary' : 'btn', 'data-action': action,
                                disabled: !signedIn }, label);
        b.addEventListener('click', () => send(msg()));
        return b;
    };
    if (info.status !== 'finished') {
        const inIt = me && me.status !== 'withdrawn';
        if (!inIt || me.status === 'paused') {
            const code = info.isPrivate && !inIt
                ? h('input', { name: 'code', 'aria-label': 'Join code', placeholder: 'Join code', maxlength: 64,
                               autocomplete: 'off', disabled: !signedIn }) : null;
            parts.push(code ?? '', button(me?.status === 'paused' ? 'Resume' : 'Join', 'join',
                                          () => buildTournament.join(info.id, code?.value.trim()), true));
        }
        if (inIt) {
            if (info.status === 'started' && me.status === 'active') {
                parts.push(button('Pause', 'pause', () => buildTournament.pause(info.id)));
            }
            parts.push(button('Withdraw', 'withdraw', () => buildTournament.withdraw(info.id)));
        }
    }
    const notes = [];
    if (!signedIn && info.status !== 'finished') {
        notes.push(h('p', { class: 'form-note', 'data-hint': 'sign-in' }, 'Sign in (top right) to join the tournament.'));
    }
    if (me?.gameId) {
        notes.push(h('p', { class: 'my-game' }, 'You are playing: ',
                     h('a', { class: 'btn primary', href: gamePath(me.gameId), 'data-action': 'my-game' }, 'Go to your game')));
    } else if (me?.status === 'paused') {
        notes.push(h('p', { class: 'form-note' }, 'You paused: you are not paired until you resume.'));
    } else if (me?.status === 'active' && info.status !== 'finished') {
        notes.push(h('p', { class: 'form-note' }, info.status === 'created'
            ? 'You are in: stay on any page of the site and your games start by themselves.'
            : 'Waiting for an opponent: your next game starts by itself.'));
    }
    if (error) {
        notes.push(h('p', { class: 'form-error', role: 'alert', 'data-code': error.code },
                     `${error.message || error.code.replace(/_/g, ' ')} (${error.code})`));
    }
    return h('div', { class: 'tournament-actions' },
             parts.length ? h('div', { class: 'row', role: 'group', 'aria-label': 'Tournament actions' }, ...parts) : '',
             ...notes);
}
