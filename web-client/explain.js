// What a piece does, in a few words, for the board's labels and tooltips (hover or long press).
// These are the rules pages' words in short; the moves themselves always come from the server.

const CHESICA = {
    b: 'a checkers man: steps and jumps diagonally forward, and may also capture one step diagonally forward',
    r: 'a checkers man: steps and jumps diagonally forward, and may also move or capture one step forward or sideways',
    q: 'a checkers man with the bishop\'s and the rook\'s extra steps',
    '+b': 'crowned: steps and jumps diagonally both ways, and slides diagonally any distance',
    '+r': 'crowned: steps and jumps diagonally both ways, and slides along ranks and files',
    '+q': 'crowned: steps and jumps diagonally both ways, and slides in every direction',
};

const SNIDERMAN = {
    k: 'moves like a chess king', q: 'moves like a chess queen', r: 'moves like a chess rook',
    b: 'moves like a chess bishop', n: 'moves like a chess knight',
};

// Extra words after the piece's name on the board ("" when the name says it all).
export function describeForBoard(variant, code) {
    if (!code || code === '*') {
        return '';
    }
    const key = code.toLowerCase();
    if (variant === 'chesica') {
        return CHESICA[key] ?? '';
    }
    if (variant === 'sniderman') {
        return SNIDERMAN[key] ? `${SNIDERMAN[key]}; either player may move it, and only to capture` : '';
    }
    if (variant === 'chessence' && key === 'k') {
        return 'never moves; no move may leave it in check';
    }
    return '';
}
