// The seek form's last choices (game, rules, clock, rated, side, rounds), and the "Play the
// computer" form's (game, level, side, clock, rounds), kept in localStorage so that each form starts
// from them. What is read back is checked: it may be old or edited by hand.
import { SNIDERMAN_ROUNDS } from './protocol.js';

const KEY = 'chessence.seek';
const COMPUTER_KEY = 'chessence.computer';
const VARIANTS = ['chessence', 'chesica', 'sniderman'];

// Sniderman has no sides and no rule sets: a Sniderman seek keeps the side and rules remembered
// from the other games.
export function rememberSeek({ variant, rules, side, rounds, clock, rated }) {
    const kept = variant === 'sniderman' ? { ...recallSeek(), variant, rounds, clock, rated }
        : { variant, rules, side, rounds, clock, rated };
    store(KEY, kept);
}

// The computer form's choices; a Sniderman game keeps the side remembered from the other games.
export function rememberComputer({ variant, level, side, rounds, clock }) {
    const kept = variant === 'sniderman' ? { ...recallComputer(), variant, level, rounds, clock }
        : { variant, level, side, rounds, clock };
    store(COMPUTER_KEY, kept);
}

function store(key, value) {
    try {
        localStorage.setItem(key, JSON.stringify(value));
    } catch {
        // storage full or disabled: the form just starts from its defaults next time
    }
}

const whole = (n, min, max) => Number.isInteger(n) && n >= min && n <= max;

function validClock(c) {
    if (c === null) {
        return true;
    }
    if (typeof c !== 'object') {
        return false;
    }
    return c.days !== undefined ? whole(c.days, 1, 14)
        : whole(c.initial, 0, 180 * 60) && whole(c.increment, 0, 180);
}

// The remembered seek choices: only the fields that are valid.
export function recallSeek() {
    return recall(KEY);
}

// The remembered computer choices (the seek's fields and the level): only the valid ones.
export function recallComputer() {
    const out = recall(COMPUTER_KEY);
    delete out.rules;
    delete out.rated;
    return out;
}

function recall(key) {
    let s;
    try {
        s = JSON.parse(localStorage.getItem(key) ?? 'null');
    } catch {
        return {};
    }
    if (!s || typeof s !== 'object') {
        return {};
    }
    const out = {};
    if (whole(s.level, 1, 8)) {
        out.level = s.level;
    }
    if (VARIANTS.includes(s.variant)) {
        out.variant = s.variant;
    }
    if (['house', 'strict'].includes(s.rules)) {
        out.rules = s.rules;
    }
    if (['random', 'white', 'black'].includes(s.side)) {
        out.side = s.side;
    }
    if (SNIDERMAN_ROUNDS.includes(s.rounds)) {
        out.rounds = s.rounds;
    }
    if ('clock' in s && validClock(s.clock)) {
        out.clock = s.clock;
    }
    if (typeof s.rated === 'boolean') {
        out.rated = s.rated;
    }
    return out;
}
