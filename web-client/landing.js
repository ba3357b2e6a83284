// What a first visitor reads on the lobby: what the site is, the three games in a line each with a
// link to their rules and a Play action, the puzzles, and what to do while no one is waiting.
import { h, variantLabel } from './ui.js';

export const VARIANTS = ['chessence', 'chesica', 'sniderman'];

const ONE_LINE = {
    chessence: 'Men with no moves of their own borrow rook, bishop and knight moves from the friendly men '
        + 'around them, on a board with holes; the kings never move.',
    chesica: 'Checkers played with chess pieces: every piece moves and jumps like a checkers man, '
        + 'and its chess name adds a little more.',
    sniderman: 'Sixteen chess pieces dealt on a 4×4 board; either player moves either colour, every move '
        + 'captures, and a goal named each round decides who wins it.',
};

// The intro card. onPlay(variant) is the Play action (the lobby selects the game in its form);
// onComputer(variant) opens "Play the computer" with that game, from each game's
// [data-slot="play-computer"].
export function renderIntro({ onPlay, onComputer }) {
    const games = VARIANTS.map((v) => {
        const play = h('button', { type: 'button', class: 'btn primary', 'data-play': v,
                                   'aria-label': `Play ${variantLabel(v)}` }, 'Play');
        play.addEventListener('click', () => onPlay(v));
        const computer = h('button', { type: 'button', class: 'btn', 'data-computer': v,
                                       'aria-label': `Play ${variantLabel(v)} against the computer` },
                           'Play the computer');
        computer.addEventListener('click', () => onComputer(v));
        return h('li', { class: 'intro-game', 'data-intro': v },
            h('h3', {}, variantLabel(v)),
            h('p', {}, ONE_LINE[v]),
            h('div', { class: 'row' }, play,
              h('a', { class: 'btn', href: `/learn/${v}`, 'data-learn': v,
                       'aria-label': `Learn the rules of ${variantLabel(v)}` }, 'Learn the rules'),
              h('span', { class: 'computer-slot', 'data-slot': 'play-computer' }, computer)));
    });
    return h('section', { class: 'card intro', 'aria-labelledby': 'intro-title' },
        h('h1', { id: 'intro-title' }, 'Three small chess variants to play in your browser'),
        h('p', { class: 'intro-lead' }, 'No account needed: choose a game and a clock, then play whoever is here, '
          + 'send a friend an invitation link or play the computer. Each game takes a few minutes to learn.'),
        h('ul', { class: 'intro-games' }, ...games),
        h('div', { class: 'row intro-puzzles' },
          h('p', {}, 'Puzzles: in each position one move wins. A new one of each game every day.'),
          h('a', { class: 'btn', href: '/puzzles', 'data-action': 'puzzles' }, 'Solve a puzzle')));
}

// The open seeks' empty state: something to do for a visitor who is alone.
export function aloneNote() {
    return h('div', { class: 'empty alone', 'data-empty': 'seeks' },
        h('p', {}, 'No open games right now. Create one and it is listed here for the next visitor, '
          + 'or make it private and send the link to a friend.'),
        h('p', {}, 'While you wait, learn a game: ',
          ...VARIANTS.flatMap((v, i) => [i ? ' · ' : '',
              h('a', { href: `/learn/${v}`, class: 'learn-link' }, variantLabel(v))]),
          ', or ', h('a', { href: '/puzzles', class: 'learn-link', 'data-action': 'puzzles' }, 'solve a puzzle'), '.'));
}
