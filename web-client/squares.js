// Square names, notation shapes and SVG element creation shared by the board's drawing and input.

export const SVG_NS = 'http://www.w3.org/2000/svg';
export const CELL = 100; // one square in SVG user units

export const squareName = (file, rank) => String.fromCharCode(97 + file) + String(rank + 1);

// The squares a move passes through: from, landings… (a drop: just its target).
export function moveSquares(notation) {
    if (notation.startsWith('@')) {
        return { drop: true, squares: [notation.slice(1)] };
    }
    return { drop: false, squares: notation.match(/[a-z]\d+/g) ?? [] };
}

export function el(name, attrs = {}) {
    const e = document.createElementNS(SVG_NS, name);
    for (const [k, v] of Object.entries(attrs)) {
        e.setAttribute(k, String(v));
    }
    return e;
}
