// The piece set, drawn from scratch as SVG in a 100×100 box (base line near y = 88). A piece code is
// what the position string writes: upper case White, lower case Black, `+` in front when promoted.

const SVG_NS = 'http://www.w3.org/2000/svg';

const BASE = 'M24 89 H76 A5 5 0 0 0 81 84 V81 A5 5 0 0 0 76 76 H24 A5 5 0 0 0 19 81 V84 A5 5 0 0 0 24 89 Z';

// Outline paths per kind; `detail` paths are drawn in the contrasting ink.
const SHAPES = {
    m: { // Chessence man: a round-headed stone on a flared foot
        body: ['M34 77 C34 63 41 55 45 51 L55 51 C59 55 66 63 66 77 Z',
               'M39 52 A11 4 0 0 0 61 52 A11 4 0 0 0 39 52 Z',
               'M50 22 A14 14 0 1 1 49.9 22 Z'],
        detail: ['M44 32 A7 7 0 0 1 52 27'],
    },
    k: {
        body: ['M31 77 C33 63 37 53 40 45 L60 45 C63 53 67 63 69 77 Z',
               'M35 38 H65 A3 3 0 0 1 68 41 V44 A3 3 0 0 1 65 47 H35 A3 3 0 0 1 32 44 V41 A3 3 0 0 1 35 38 Z',
               'M37 38 C37 27 63 27 63 38 Z',
               'M47 9 H53 V15 H59 V21 H53 V29 H47 V21 H41 V15 H47 Z'],
        detail: ['M40 60 H60'],
    },
    q: {
        body: ['M31 77 C33 64 37 55 39 48 L61 48 C63 55 67 64 69 77 Z',
               'M31 48 L23 21 L36 37 L38 15 L45 35 L50 11 L55 35 L62 15 L64 37 L77 21 L69 48 Z',
               'M23 21 m-4.5 0 a4.5 4.5 0 1 0 9 0 a4.5 4.5 0 1 0 -9 0 Z',
               'M38 15 m-4.5 0 a4.5 4.5 0 1 0 9 0 a4.5 4.5 0 1 0 -9 0 Z',
               'M50 11 m-4.5 0 a4.5 4.5 0 1 0 9 0 a4.5 4.5 0 1 0 -9 0 Z',
               'M62 15 m-4.5 0 a4.5 4.5 0 1 0 9 0 a4.5 4.5 0 1 0 -9 0 Z',
               'M77 21 m-4.5 0 a4.5 4.5 0 1 0 9 0 a4.5 4.5 0 1 0 -9 0 Z'],
        detail: ['M35 48 H65', 'M39 62 H61'],
    },
    r: {
        body: ['M33 77 L36 46 L64 46 L67 77 Z',
               'M28 46 V20 H38 V28 H45 V20 H55 V28 H62 V20 H72 V46 Z'],
        detail: ['M32 46 H68', 'M36 34 H64', 'M38 62 H62'],
    },
    b: {
        body: ['M35 77 C37 65 41 58 44 53 L56 53 C59 58 63 65 65 77 Z',
               'M39 47 H61 A3 3 0 0 1 64 50 V52 A3 3 0 0 1 61 55 H39 A3 3 0 0 1 36 52 V50 A3 3 0 0 1 39 47 Z',
               'M50 15 C63 24 68 36 61 47 L39 47 C32 36 37 24 50 15 Z',
               'M50 7 m-5 0 a5 5 0 1 0 10 0 a5 5 0 1 0 -10 0 Z'],
        detail: ['M55 25 L45 38'],
    },
    n: {
        body: ['M31 77 C30 62 37 53 45 46 C38 47 31 51 25 50 C19 49 18 42 22 38 L40 21 '
               + 'C42 15 46 12 51 13 L53 7 L58 14 C71 18 78 33 76 51 C75 62 71 70 71 77 Z'],
        detail: ['M44 26 m-3 0 a3 3 0 1 0 6 0 a3 3 0 1 0 -6 0', 'M60 20 C68 30 70 45 66 60',
                 'M26 44 L29 42'],
    },
};

const KIND_NAMES = { m: 'man', k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };

// What a piece code means: colour, kind, promotion.
export function describePiece(code) {
    if (!code || code === '*') {
        return null;
    }
    const promoted = code.startsWith('+');
    const letter = promoted ? code.slice(1) : code;
    const kind = letter.toLowerCase();
    if (!SHAPES[kind]) {
        return null;
    }
    const color = letter === letter.toUpperCase() ? 'white' : 'black';
    return { color, kind, promoted, name: `${promoted ? 'promoted ' : ''}${color} ${KIND_NAMES[kind]}` };
}

function path(d, cls) {
    const p = document.createElementNS(SVG_NS, 'path');
    p.setAttribute('d', d);
    p.setAttribute('class', cls);
    return p;
}

// An SVG <g> drawing `code` in the 100×100 box at (x, y) scaled to `size`.
export function pieceGraphic(code, x = 0, y = 0, size = 100) {
    const info = describePiece(code);
    const g = document.createElementNS(SVG_NS, 'g');
    if (!info) {
        return g;
    }
    g.setAttribute('class', `piece ${info.color} kind-${info.kind}${info.promoted ? ' promoted' : ''}`);
    g.setAttribute('transform', `translate(${x} ${y}) scale(${size / 100})`);
    if (info.promoted) {
        g.appendChild(path('M50 3 A47 47 0 1 1 49.9 3 Z', 'promo-ring'));
    }
    const shape = SHAPES[info.kind];
    g.appendChild(path(BASE, 'ink-body'));
    for (const d of shape.body) {
        g.appendChild(path(d, 'ink-body'));
    }
    for (const d of shape.detail) {
        g.appendChild(path(d, 'ink-detail'));
    }
    if (info.promoted) {
        // A small crown badge in the upper right corner.
        g.appendChild(path('M70 26 L72 13 L78 20 L83 10 L88 20 L94 13 L96 26 Z', 'promo-crown'));
    }
    return g;
}

// A standalone <svg> icon of a piece (reserves, legends).
export function pieceIcon(code, size = 40) {
    const svg = document.createElementNS(SVG_NS, 'svg');
    svg.setAttribute('viewBox', '0 0 100 100');
    svg.setAttribute('width', String(size));
    svg.setAttribute('height', String(size));
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('class', 'piece-icon');
    svg.appendChild(pieceGraphic(code));
    return svg;
}
