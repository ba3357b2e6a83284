// Small DOM helpers and the words the pages show for protocol values.

// h('div', {class: 'x'}, child, 'text', …): an element; null/undefined/false attributes and empty
// children are skipped; `true` sets an empty attribute.
export function h(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs ?? {})) {
        if (v === null || v === undefined || v === false) {
            continue;
        }
        e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) {
        if (c === null || c === undefined || c === '' || c === false) {
            continue;
        }
        e.append(c instanceof Node ? c : String(c));
    }
    return e;
}

// "1 move", "3 moves"; `many` when the plural is not just an s.
export const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const VARIANT_LABELS = { chessence: 'Chessence', chesica: 'Chesica', sniderman: 'Sniderman' };
export const variantLabel = (v) => VARIANT_LABELS[v] ?? v;
const VARIANT_TITLES = { chessence: 'Chessence', chesica: 'Chesica', sniderman: "Sniderman's Chessence" };
export const variantTitle = (v) => VARIANT_TITLES[v] ?? v;

const SIDE_LABELS = { white: 'White', black: 'Black', odd: 'ODD', even: 'EVEN', random: 'Random' };
export const sideLabel = (s) => SIDE_LABELS[s] ?? s;

// The one rule a newcomer must not miss, shown above the board.
const KEY_RULES = {
    chessence: 'Men borrow powers from friends: one beside it gives rook moves, diagonal bishop, a knight\'s move away knight.',
    chesica: 'Checkers men with a chess power: jumping is compulsory, and a jump goes on while it can.',
    sniderman: 'Move either colour, always capturing; when no capture is left, the object decides the round.',
};
export const keyRule = (v) => KEY_RULES[v] ?? '';

const REASONS = {
    checkmate: 'checkmate', stalemate: 'no legal move', threefold_repetition: 'threefold repetition',
    hundred_ply_rule: '100 plies without a capture', all_captured: 'all pieces captured',
    no_legal_moves: 'no legal move', resignation: 'resignation', agreement: 'agreement',
    match_won: 'winning the match', object_decided: 'the object', round_over: 'the round ended',
    timeout: 'time', abandoned: 'abandonment', aborted: 'abort', no_start: 'a missed first move',
};
export const reasonText = (r) => REASONS[r] ?? String(r ?? '').replace(/_/g, ' ');

// Why a game ended, as a sentence: `loser` and `winner` are names (null for a draw).
export function reasonSentence(variant, reason, winner, loser) {
    switch (reason) {
    case 'checkmate':
        return `${loser}'s king is in check and no move gets it out: a player without a legal move loses.`;
    case 'stalemate':
        return `${loser} has no legal move (the king is not in check): in Chessence that loses too.`;
    case 'no_legal_moves':
        return `${loser} has no legal move left, and a player who cannot move loses.`;
    case 'all_captured':
        return `${winner} captured all of ${loser}'s pieces.`;
    case 'threefold_repetition':
        return 'The same position came up for the third time: a draw under the house rules.';
    case 'hundred_ply_rule':
        return variant === 'chessence'
            ? '100 moves in a row (50 each) had no capture and no drop: a draw under the house rules.'
            : '100 moves in a row (50 each) had no capture: a draw under the house rules.';
    case 'resignation':
        return `${loser} resigned.`;
    case 'agreement':
        return 'The players agreed to a draw.';
    case 'timeout':
        return `${loser} ran out of time.`;
    case 'abandoned':
        return loser ? `${loser} left the game.` : 'A player left the game; the other called it a draw.';
    case 'match_won':
        return `${winner} won more than half of the rounds.`;
    case 'aborted':
        return 'The game was aborted before both players had moved: it counts for nobody.';
    case 'no_start':
        return `${loser} did not make their first move in time: in a tournament that loses the game.`;
    default:
        return reasonText(reason);
    }
}

// The server's words as a sentence: a capital first letter and a full stop ("log in first" →
// "Log in first.").
export function sentence(text) {
    const t = String(text ?? '').trim();
    if (!t) {
        return '';
    }
    return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?…]$/.test(t) ? '' : '.'}`;
}

// What an error the server sends means to the player, for the codes a player meets; any other
// error shows the server's message as a sentence (errorText).
const ERROR_TEXTS = {
    account_required: 'Rated games are for accounts: sign in or register (top right) to play one.',
    outside_rating_range: 'Your rating is outside the range this player asked for.',
};
export const errorText = (err) => ERROR_TEXTS[err.code] ?? sentence(err.message || String(err.code ?? '').replace(/_/g, ' '));

// Copies text to the clipboard, falling back to selecting `input` (returns whether it copied).
export async function copyText(text, input) {
    try {
        await navigator.clipboard.writeText(text);
        return true;
    } catch {
        input?.select();
        try {
            return document.execCommand('copy');
        } catch {
            return false;
        }
    }
}

// "a1"-style name of square index i on a board `files` wide.
export const squareOf = (i, files) => String.fromCharCode(97 + (i % files)) + (Math.floor(i / files) + 1);

// The page for a link that leads nowhere (a game that does not exist): what happened and the way
// back, instead of an empty board. `links` ([{href, text, action}], the first one primary) replace
// the default ways back (the lobby, the rules).
export function missingPage({ title, text, links = null }) {
    const ways = links ?? [{ href: '/', text: 'Back to the lobby', action: 'lobby' },
                           { href: '/learn/chessence', text: 'Learn the games' }];
    return h('section', { class: 'card missing', 'data-missing': '', role: 'alert', 'aria-labelledby': 'missing-title' },
        h('h1', { id: 'missing-title' }, title), h('p', {}, text),
        h('div', { class: 'row center' }, ...ways.map((w, i) =>
            h('a', { class: i ? 'btn' : 'btn primary', href: w.href, 'data-action': w.action ?? null }, w.text))));
}

// The missing game's page: `id` is shown as text (it comes from the address bar).
export const missingGame = (id) => missingPage({
    title: 'No such game',
    text: `There is no game “${id}” on this server: the link may be mistyped or cut short.`,
});
