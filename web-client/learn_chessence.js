// The rules of Chessence for the Learn page, in the project's words (docs/rules.md says the same).
// Each section: a title, paragraphs, and optionally a live diagram {fen, moves, caption}.

export const chessence = {
    title: 'Chessence',
    intro: 'Jim Winslow\'s game of 1989. Each side has a king that never moves and a handful of identical '
        + 'men. A man has no moves of its own: it borrows them from the friendly men around it, so every move '
        + 'changes what the other men can do.',
    sections: [
        {
            id: 'setup', title: 'Board and setup',
            text: ['The board has 6 files (a–f) and 9 ranks (1–9), with eight holes that are not squares at all: '
                + 'a2, b3, b5, c6, d4, e5, e7 and f8. Pieces never stand on a hole.',
                   'White has a king on f1, six men on d2, d3, e1, e2, e3 and f2, and three more men in reserve '
                + 'beside the board. Black mirrors this from the other corner: king a9, men a8, b7, b8, b9, c7, '
                + 'c8, three in reserve. White moves first.'],
            diagram: { fen: '', caption: 'The start. Click a White man to see its moves.' },
        },
        {
            id: 'powers', title: 'How a man moves: powers from its friends',
            text: ['Look at the friendly men around a man — only men on the board count, never a king, never an '
                + 'enemy man. Each kind of neighbour lends one power:',
                   '• a friend right beside it (left, right, in front, behind) lets it move as a rook;',
                   '• a friend diagonally next to it lets it move as a bishop;',
                   '• a friend a knight\'s jump away lets it move as a knight.',
                   'Powers add up, and a man with no such friend cannot move at all. The powers are read from the '
                + 'position before the move. On the board, small badges down the right side of each man show its '
                + 'powers right now: rook on top, bishop in the middle, knight at the bottom (Settings can hide '
                + 'them).'],
            diagram: { fen: 'k5/mm3*/4*1/2*3/1*2*1/3*2/1*1MM1/*3M1/5K[] w 0 1',
                       caption: 'd3 and e2 touch diagonally and e3 sits beside both: click each man.' },
        },
        {
            id: 'slides', title: 'Slides, leaps and the holes',
            text: ['Rook and bishop moves slide over empty squares and stop on any of them; they stop before a '
                + 'piece or a hole, and may capture an enemy man that blocks the line. A knight move leaps over '
                + 'anything, holes included, but cannot land on a hole or on a friend.',
                   'Whether two men are related is pure geometry: a hole between them neither makes nor breaks '
                + 'the relation.'],
            diagram: { fen: 'k5/m4*/4*1/2*3/1*M1*1/3*2/1*1M2/*5/5K[] w 0 1',
                       caption: 'These two White men are a knight\'s move apart: each moves only as a knight.' },
        },
        {
            id: 'drops', title: 'Drops from the reserve',
            text: ['Instead of moving, you may put one of your reserve men on an empty square among your own six '
                + 'starting squares (White: d2 d3 e1 e2 e3 f2; Black: a8 b7 b8 b9 c7 c8). Captured men are gone '
                + 'for good: the reserve is never refilled. Dropping is never compulsory.'],
            diagram: { fen: '', moves: ['e3-e4', 'b7-b6'],
                       caption: 'e3 has moved away: click the reserve pile, then an empty starting square.' },
        },
        {
            id: 'check', title: 'Check',
            text: ['A king is in check when an enemy man could move onto its square with the powers it has now — '
                + 'even a man that could not legally move because it shields its own king. No move, and no drop, '
                + 'may leave your own king in check.',
                   'Because powers come from partners, a move can give check by lending a man a new power, and you '
                + 'can parry a check by capturing the partner that lends the checking man its power.'],
            diagram: { fen: 'k5/5*/4*1/2*3/1*2*1/3*2/1*M3/*m1M2/1m3K[] w 0 1',
                       caption: 'White is in check: three moves get out of it.' },
        },
        {
            id: 'end', title: 'How the game ends',
            text: ['A player who has no legal move loses — whether the king is in check (checkmate) or not. '
                + 'Kings never move, so running away is never an option.',
                   'A game also ends by resignation, by a draw both players agree to, or on time.'],
            diagram: { fen: 'k5/mm3*/4*1/2*3/1*2*1/3*2/1*4/*5/M4K[] w 0 1',
                       caption: 'White\'s only man has no friend, so no power: White has no move and has lost.' },
        },
        {
            id: 'house', title: 'House rules and strict rules',
            text: ['The sources have no draw rule, and a game online must end, so games use the house rules '
                + 'unless created as strict:',
                   '• the third time the same position appears (same men, same reserves, same side to move), the '
                + 'game is drawn;',
                   '• after 100 moves in a row (50 by each side) without a capture or a drop, the game is drawn.',
                   'Strict games have neither rule. If a player has no legal move on the very move that would draw, '
                + 'the player without a move loses.'],
        },
    ],
};
