// Premoves: what the user entered on the board while it was not their turn (lichess allows one),
// and what it becomes once the opponent has moved. No rules here: a premove is a list of squares
// matched against the legal moves the server sends.
import { moveSquares } from './squares.js';

// The legal move that `premove` ({drop, squares}) names now: {move} when exactly one legal move
// starts with its squares (a Chesica chain may be entered by its first landing), {choices} when
// several do (the user picks the rest), or null when it is no longer possible.
export function matchPremove(premove, legal) {
    if (!premove) {
        return null;
    }
    const found = legal.filter((notation) => {
        const m = moveSquares(notation);
        return m.drop === !!premove.drop && premove.squares.every((s, i) => m.squares[i] === s);
    });
    const exact = found.find((n) => moveSquares(n).squares.length === premove.squares.length);
    if (exact) {
        return { move: exact };
    }
    if (found.length === 1) {
        return { move: found[0] };
    }
    return found.length ? { choices: found } : null;
}

// How a premove reads: "e3-e4", "@d2".
export const premoveText = (premove) => (premove.drop ? `@${premove.squares[0]}` : premove.squares.join('-'));
