// The rules of Chesica for the Learn page, in the project's words (docs/rules.md says the same).

export const chesica = {
    title: 'Chesica',
    intro: 'Checkers played with chess pieces: F. S. Copley\'s game of 1864, as Peter Aronson reconstructed it '
        + 'in 2003. Every piece moves and jumps like a checkers man; its chess name adds a little more.',
    sections: [
        {
            id: 'setup', title: 'Board and setup',
            text: ['An ordinary 8×8 board with a1 dark; all pieces stand on dark squares. White: queens on a1 c1 e1 '
                + 'g1, rooks on b2 d2 f2 h2, bishops on a3 c3 e3 g3. Black: bishops on b6 d6 f6 h6, rooks on a7 '
                + 'c7 e7 g7, queens on b8 d8 f8 h8. White moves first and moves up the board; Black moves down.',
                   'On the board every piece is drawn as a checkers man with its chess power marked on it. A '
                + 'crowned double stack is a promoted piece.'],
            diagram: { fen: '', caption: 'The start. Click a White piece to see its moves.' },
        },
        {
            id: 'men', title: 'Every piece is a checkers man…',
            text: ['An unpromoted piece steps one square diagonally forward onto an empty square, or jumps '
                + 'diagonally forward over an enemy piece next to it onto the empty square just beyond, taking '
                + 'it. It never moves backwards.'],
        },
        {
            id: 'powers', title: '…with a little chess on top',
            text: ['• A bishop may also capture one step diagonally forward by taking the enemy\'s place.',
                   '• A rook may also step one square forward or sideways, onto an empty square or capturing what '
                + 'stands there. (Its diagonal step never captures.)',
                   '• A queen has both extras.'],
            diagram: { fen: '8/8/8/4b2b/2br1rq1/2B2Q2/8/8 w 0 1',
                       caption: 'No jump is possible here, so captures by taking a piece\'s place are allowed: '
                           + 'click the bishop, then the queen.' },
        },
        {
            id: 'jumps', title: 'Jumping is compulsory, and a jump goes on',
            text: ['If any jump is possible, you must jump (choose any one). Capturing by taking a piece\'s place, '
                + 'and plain steps, are allowed only when no jump is.',
                   'After a jump the same piece must keep jumping while it can, choosing freely among the '
                + 'continuations — there is no rule to take the most. Each jumped piece leaves the board at once; '
                + 'the whole chain is one move. On the board, click the landing squares one after another.'],
            diagram: { fen: '8/8/3b1b2/8/3b4/2B5/1r6/R7 w 0 1',
                       caption: 'The bishop on c3 must jump: after e5 it chooses c7 or g7.' },
        },
        {
            id: 'promotion', title: 'Promotion',
            text: ['An unpromoted piece that reaches the far rank — by any move — is promoted, and its turn ends at '
                + 'once, even in the middle of a jump chain.',
                   'A promoted piece is a checkers king: it steps and jumps diagonally in all four directions. A '
                + 'promoted bishop also slides diagonally any distance, a promoted rook slides along ranks and '
                + 'files, a promoted queen both — each capturing by taking the place of the first enemy piece in '
                + 'its line. A promoted piece on the far rank keeps jumping.'],
            diagram: { fen: '8/2b1b3/1B6/8/8/8/8/q7 w 0 1',
                       caption: 'b6xd8 promotes and stops there, though the jump to f6 looks open.' },
        },
        {
            id: 'kings', title: 'Promoted pieces in action',
            text: ['A jump is still compulsory for a promoted piece, and now it may jump backwards.'],
            diagram: { fen: '7r/8/8/8/3+Q4/2b5/8/8 w 0 1',
                       caption: 'The promoted queen has many slides, but the backward jump d4xb2 is forced.' },
        },
        {
            id: 'end', title: 'How the game ends',
            text: ['You win by capturing all the opposing pieces. A player who has no legal move loses.',
                   'No move may bring about the third occurrence of the same position in the game (the same '
                + 'pieces, promotions included, with the same side to move); such a move is simply not '
                + 'allowed, and if it was the only one, that player has no legal move.',
                   'A game also ends by resignation, by agreement, or on time.'],
            diagram: { fen: '1+B1+B1+B1+B/B1B1B1B1/8/8/8/8/8/q7 w 0 1',
                       caption: 'White\'s pieces block one another completely: no legal move, so White has lost.' },
        },
        {
            id: 'house', title: 'House rules and strict rules',
            text: ['Unless the game was created as strict, one house rule keeps games finite: after 100 moves in '
                + 'a row (50 each) without a capture, the game is drawn. Strict games have no draw rule.'],
        },
    ],
};
