// The piece set, drawn from scratch as SVG in a 100×100 box. A piece code is what the position
// string writes: upper case White, lower case Black, `+` in front when promoted. Each game gets
// pieces that say what they are: Chessence men are plain stones (their powers are drawn beside them,
// see powerBadges), Chesica's pieces are checkers men marked with their chess power (promoted ones
// are crowned double stacks), Sniderman uses the chess pieces.

const SVG_NS = 'http://www.w3.org/2000/svg';

const BASE = 'M24 89 H76 A5 5 0 0 0 81 84 V81 A5 5 0 0 0 76 76 H24 A5 5 0 0 0 19 81 V84 A5 5 0 0 0 24 89 Z';

// Chess pieces: outline paths per kind; `detail` paths are drawn in the contrasting ink.
const SHAPES = {
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
const POWER_NAMES = { r: 'rook', b: 'bishop', n: 'knight' };

// What a piece code means: colour, kind, promotion, and a name for people ("White bishop man" in
// Chesica, whose pieces are all checkers men).
export function describePiece(code, variant = '') {
    if (!code || code === '*') {
        return null;
    }
    const promoted = code.startsWith('+');
    const letter = promoted ? code.slice(1) : code;
    const kind = letter.toLowerCase();
    if (!KIND_NAMES[kind]) {
        return null;
    }
    const color = letter === letter.toUpperCase() ? 'white' : 'black';
    const Color = color === 'white' ? 'White' : 'Black';
    let name = `${Color} ${KIND_NAMES[kind]}`;
    if (variant === 'chesica') {
        name = promoted ? `${Color} promoted ${KIND_NAMES[kind]} (crowned)` : `${Color} ${KIND_NAMES[kind]} man`;
    } else if (promoted) {
        name = `${Color} promoted ${KIND_NAMES[kind]}`;
    }
    return { color, kind, promoted, name };
}

function svg(name, attrs) {
    const e = document.createElementNS(SVG_NS, name);
    for (const [k, v] of Object.entries(attrs)) {
        e.setAttribute(k, String(v));
    }
    return e;
}

const path = (d, cls) => svg('path', { d, class: cls });

// The chess piece `kind` in ink classes `body`/`detail`, inside a group transformed by `transform`.
function chessShape(kind, transform, body = 'ink-body', detail = 'ink-detail') {
    const g = svg('g', { transform });
    if (body === 'ink-body') {
        g.appendChild(path(BASE, body));
    }
    for (const d of SHAPES[kind].body) {
        g.appendChild(path(d, body));
    }
    for (const d of SHAPES[kind].detail) {
        g.appendChild(path(d, detail));
    }
    return g;
}

// Chessence man: a round stone.
function stone(g) {
    g.appendChild(svg('circle', { cx: 50, cy: 52, r: 31, class: 'ink-body' }));
    g.appendChild(svg('circle', { cx: 50, cy: 52, r: 20, class: 'ink-detail' }));
}

// Chesica: a checkers man seen from above, its chess power drawn on its face; a promoted piece is
// a crowned double stack (a checkers king).
function checkersMan(g, kind, promoted) {
    if (promoted) {
        g.appendChild(svg('circle', { cx: 50, cy: 60, r: 40, class: 'ink-body stack' }));
    }
    const cy = promoted ? 45 : 51;
    g.appendChild(svg('circle', { cx: 50, cy, r: 43, class: 'ink-body' }));
    g.appendChild(svg('circle', { cx: 50, cy, r: 37, class: 'ink-detail rim' }));
    if (promoted) {
        g.appendChild(svg('circle', { cx: 50, cy, r: 40, class: 'crown-band' }));
        g.appendChild(path('M35 13 L38 2 L44 8 L50 -1 L56 8 L62 2 L65 13 Z', 'promo-crown'));
    }
    const scale = 0.62;
    g.appendChild(chessShape(kind, `translate(${50 - 50 * scale} ${cy - 48 * scale}) scale(${scale})`,
                             'mark-body', 'mark-detail'));
}

// An SVG <g> drawing `code` in the 100×100 box at (x, y) scaled to `size`, as `variant` shows it.
export function pieceGraphic(code, x = 0, y = 0, size = 100, variant = '') {
    const info = describePiece(code, variant);
    const g = svg('g', {});
    if (!info) {
        return g;
    }
    const style = info.kind === 'm' ? 'stone' : variant === 'chesica' ? 'checkers' : 'chess';
    g.setAttribute('class', `piece ${info.color} kind-${info.kind} ${style}${info.promoted ? ' promoted' : ''}`);
    g.setAttribute('transform', `translate(${x} ${y}) scale(${size / 100})`);
    if (style === 'stone') {
        stone(g);
    } else if (style === 'checkers') {
        checkersMan(g, info.kind, info.promoted);
    } else {
        if (info.promoted) {
            g.appendChild(path('M50 3 A47 47 0 1 1 49.9 3 Z', 'promo-ring'));
        }
        g.appendChild(chessShape(info.kind, ''));
        if (info.promoted) {
            g.appendChild(path('M70 26 L72 13 L78 20 L83 10 L88 20 L94 13 L96 26 Z', 'promo-crown'));
        }
    }
    return g;
}

// Chessence: the powers of a man ("rbn") as lettered badges in fixed slots down the right edge of its
// square: R (rook) at the top, B (bishop) in the middle, N (knight) at the bottom.
export function powerBadges(powers, color, x, y) {
    const g = svg('g', { class: `powers ${color}`, transform: `translate(${x} ${y})`, 'aria-hidden': 'true' });
    ['r', 'b', 'n'].forEach((p, slot) => {
        if (!powers.includes(p)) {
            return;
        }
        const cy = 18 + slot * 32;
        g.appendChild(svg('circle', { cx: 84, cy, r: 15, class: `badge badge-${p}` }));
        const letter = svg('text', { x: 84, y: cy + 7, class: 'badge-letter' });
        letter.textContent = p === 'n' ? 'N' : p.toUpperCase();
        g.appendChild(letter);
    });
    return g;
}

// "moves as a rook and a knight" / "has no power: it cannot move"
export function powersText(powers) {
    const names = ['r', 'b', 'n'].filter((p) => powers.includes(p)).map((p) => POWER_NAMES[p]);
    if (!names.length) {
        return 'has no friend next to it, diagonally or a knight\'s move away, so it cannot move';
    }
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
    return `moves as a ${list}`;
}

// Why a man has each of its powers, for the explanation on hover or long press.
export function powersWhy(powers) {
    const why = { r: 'a friendly man stands right beside it, orthogonally: rook moves',
                  b: 'a friendly man stands diagonally next to it: bishop moves',
                  n: 'a friendly man stands a knight\'s move away: knight moves' };
    return ['r', 'b', 'n'].filter((p) => powers.includes(p)).map((p) => why[p]);
}

// A standalone <svg> icon of a piece (reserves, legends).
export function pieceIcon(code, size = 40, variant = '') {
    const icon = svg('svg', { viewBox: '0 0 100 100', width: size, height: size, 'aria-hidden': 'true',
                              class: 'piece-icon' });
    icon.appendChild(pieceGraphic(code, 0, 0, 100, variant));
    return icon;
}
