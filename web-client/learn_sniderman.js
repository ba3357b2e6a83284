// The rules of Sniderman's Chessence for the Learn page, in the project's words (docs/rules.md).

const OBJECTS = [
    'the last piece captured is White;',
    'the last piece captured stood on a red square;',
    'the last piece captured stood on rank 1 or rank 4;',
    'a king (of either colour) was captured by one of EVEN\'s moves, at any time in the round;',
    'an odd number of pieces is left on the board;',
    'an odd number of White pieces is left;',
    'all the pieces left are one colour (a single piece counts);',
    'the last two squares landed on are the same colour;',
    'the last two pieces captured are the same colour;',
    'the last piece captured outranks the one captured before it (king, queen, rook, bishop, knight; equal is not higher).',
];

export const sniderman = {
    title: 'Sniderman\'s Chessence',
    intro: 'Stephen Sniderman\'s game shares the name but nothing else: a tiny board crammed with chess pieces, '
        + 'two players who are not colours, and a goal that changes every round.',
    sections: [
        {
            id: 'setup', title: 'Board and deal',
            text: ['A 4×4 board, a1 dark. Its light squares are red: b1, d1, a2, c2, b3, d3, a4 and c4. The 16 '
                + 'chess pieces other than pawns (for each colour a king, a queen, two rooks, two bishops and two '
                + 'knights) are dealt at random so that every square is full. Each round gets a new deal, shown '
                + 'before anything is decided.',
                   'The players are not White and Black. One is ODD and plays moves 1, 3, 5…; the other is EVEN and '
                + 'plays moves 2, 4, 6…. Who is which is chosen again each round.'],
            diagram: { fen: 'qbnr/rnbk/KBNR/RNBQ 1', caption: 'A deal. Click a piece: either colour may be moved.' },
        },
        {
            id: 'play', title: 'Every move is a capture',
            text: ['On your turn, move a piece of either colour, and it must capture a piece of the other colour. '
                + 'Pieces move and capture as in chess. Kings can be captured and may move onto attacked squares: '
                + 'there is no check.',
                   'When no capture is possible, for either colour, the round is over. A round lasts at most 15 '
                + 'moves and is never a tie: the round\'s object says who wins.'],
            diagram: { fen: '4/q3/n3/R3 1', caption: 'Play it out: a1xa2, then the queen takes back.' },
        },
        {
            id: 'objects', title: 'The objects',
            text: ['Before play, one player names an object from this list; ODD wins the round if it is true, '
                + 'EVEN if it is not. An object that needs one or two captures that did not happen is false, so '
                + 'EVEN wins.', ...OBJECTS.map((o, i) => `${i + 1}. ODD wins if ${o}`)],
        },
        {
            id: 'match', title: 'The match',
            text: ['A match has an odd number of rounds agreed at the start: 1, 3, 5, 7 or 9. Whoever wins more than '
                + 'half of them wins the match, and play stops there.',
                   'In round 1 a coin decides who names the object; after that the loser of the previous round '
                + 'names it. An object is used at most once per match. Then the other player chooses to be ODD or '
                + 'EVEN for the round, and ODD moves first.',
                   'Sniderman has no draws and no house rules. A match also ends by resignation or on time.'],
        },
    ],
};
