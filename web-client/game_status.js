// The words of the game page: the status line, the note on the last move, the review note and the
// page title. Pure functions of the room record and who is looking.
import { plural, sideLabel, variantTitle } from './ui.js';

// "2. d4-e5" / "2… e5-d4" for ply `ply` (1-based) of a game with White and Black; "3. a1xb2" in
// Sniderman, whose list numbers every ply.
export function plyLabel(variant, ply, move) {
    if (variant === 'sniderman') {
        return `${ply}. ${move}`;
    }
    const n = Math.ceil(ply / 2);
    return ply % 2 ? `${n}. ${move}` : `${n}… ${move}`;
}

// The main status line. view: {g, seat, myTurn, nameOf, online (the connection), premove}
export function statusText({ g, seat, myTurn, nameOf, online }) {
    if (g.result) {
        return '';
    }
    const m = g.match;
    if (g.variant === 'sniderman' && m?.phase !== 'playing') {
        const actor = m?.phase === 'naming' ? m.namer : m?.chooser;
        const what = m?.phase === 'naming' ? 'name the object for this round' : 'choose ODD or EVEN';
        return actor && actor === seat ? `Your turn: ${what}.` : `${nameOf(actor)} is about to ${what}.`;
    }
    let text;
    if (myTurn) {
        text = g.inCheck ? 'Your move — your king is in check!' : 'Your move.';
        if (!online) {
            text += ' You are offline: a move you make now is sent when the connection is back.';
        }
    } else {
        const mover = g.variant === 'sniderman' ? m?.[g.toMove] : g.toMove;
        text = `${nameOf(mover)} (${sideLabel(g.toMove ?? '')}) to move${g.inCheck ? ', in check' : ''}.`;
        if (!online && seat) {
            text += ' You are offline; the game will catch up when the connection is back.';
        }
    }
    const away = g.players.filter((p) => p.id && !p.online && p.seat !== seat);
    if (seat && away.length) {
        text += ` ${away.map((p) => p.name).join(' and ')} ${away.length > 1 ? 'are' : 'is'} disconnected.`;
    }
    return text;
}

// "White (Ann) played e3-e4." for the last move of the live position.
export function lastMoveText(g, nameOf) {
    const n = g.moves.length;
    if (!n || g.result || (g.variant === 'sniderman' && g.match?.phase !== 'playing')) {
        return '';
    }
    if (g.variant === 'sniderman') {
        const side = n % 2 ? 'odd' : 'even';
        return `${sideLabel(side)} (${nameOf(g.match?.[side])}) played ${g.moves[n - 1]}.`;
    }
    const side = n % 2 ? 'white' : 'black';
    return `${sideLabel(side)} (${nameOf(side)}) played ${g.moves[n - 1]}.`;
}

// While reviewing: which position is on the board (the ply whose row is highlighted).
export function reviewText(g, viewPly) {
    if (viewPly === null) {
        return '';
    }
    if (viewPly === 0) {
        return 'Showing the start position. → steps forward, “Live” returns.';
    }
    return `Showing the position after ${plyLabel(g.variant, viewPly, g.moves[viewPly - 1])}. → steps forward, “Live” returns.`;
}

// "Your move · Chessence: Ann vs Bob"
export function pageTitle(g, myTurn) {
    const names = g.players.map((p) => p.name).filter(Boolean);
    const who = names.length === 2 ? `: ${names[0]} vs ${names[1]}` : '';
    const over = g.result ? ' (finished)' : '';
    return `${myTurn ? 'Your move · ' : ''}${variantTitle(g.variant)}${who}${over}`;
}

// "3 moves", "Round 2 of 3"
export const movesCount = (n) => plural(n, 'move');
