// Protocol v1 (docs/protocol.md): the one place that knows message types and field names. It builds
// the frames the browser sends and turns what the server sends into plain client-side records.

export const PROTOCOL_VERSION = 1;
export const VARIANTS = ['chessence', 'chesica', 'sniderman'];
export const SNIDERMAN_ROUNDS = [1, 3, 5, 7, 9];

// ---- What the browser sends -------------------------------------------------------------------

export const build = {
    hello: (token, name) => clean({ type: 'hello', protocol: PROTOCOL_VERSION, token, name }),
    setName: (name) => ({ type: 'set_name', name }),
    lobbySubscribe: () => ({ type: 'lobby_subscribe' }),
    lobbyUnsubscribe: () => ({ type: 'lobby_unsubscribe' }),
    // A page of the public games in progress, newest first (the reply is a `lobby_games`).
    lobbyGames: (offset, limit) => clean({ type: 'lobby_games', offset, limit }),
    seekCreate: ({ variant, rules, side, rounds, isPrivate, clock, rated }) =>
        clean({ type: 'seek_create', variant, rules, side, private: !!isPrivate, rated: rated || undefined,
                rounds: variant === 'sniderman' ? rounds : undefined, clock: clock ?? undefined, id: 'seek' }),
    // A game against the computer at `level` (1–8): casual and public, it starts at once. Its id
    // ('computer') tells its game_started from an accepted seek's.
    computerGame: ({ variant, rules, side, rounds, clock, level }) =>
        clean({ type: 'seek_create', variant, rules, side: variant === 'sniderman' ? undefined : side,
                rounds: variant === 'sniderman' ? rounds : undefined, clock: clock ?? undefined,
                opponent: 'computer', level, id: 'computer' }),
    seekCancel: (seekId) => ({ type: 'seek_cancel', seek_id: seekId }),
    seekAccept: (seekId) => ({ type: 'seek_accept', seek_id: seekId }),
    quickPair: ({ variant, rules, rounds, clock, rated }) =>
        clean({ type: 'quick_pair', variant, rules, rated: rated || undefined,
                rounds: variant === 'sniderman' ? rounds : undefined, clock: clock ?? undefined, id: 'seek' }),
    // `key`: a private game's access key (from its link, or the players' snapshot).
    watch: (gameId, since, key) => clean({ type: 'watch', game_id: gameId, since, key }),
    unwatch: (gameId) => ({ type: 'unwatch', game_id: gameId }),
    move: (gameId, move) => ({ type: 'move', game_id: gameId, move }),
    resign: (gameId) => ({ type: 'resign', game_id: gameId }),
    drawOffer: (gameId) => ({ type: 'draw_offer', game_id: gameId }),
    drawAccept: (gameId) => ({ type: 'draw_accept', game_id: gameId }),
    drawDecline: (gameId) => ({ type: 'draw_decline', game_id: gameId }),
    rematchOffer: (gameId) => ({ type: 'rematch_offer', game_id: gameId }),
    rematchAccept: (gameId) => ({ type: 'rematch_accept', game_id: gameId }),
    nameObject: (gameId, object) => ({ type: 'name_object', game_id: gameId, object }),
    chooseSide: (gameId, side) => ({ type: 'choose_side', game_id: gameId, side }),
    chat: (gameId, text) => ({ type: 'chat', game_id: gameId, text }),
    spectatorChat: (gameId, open) => ({ type: 'spectator_chat', game_id: gameId, open }),
    abort: (gameId) => ({ type: 'abort', game_id: gameId }),
    claimVictory: (gameId) => ({ type: 'claim_victory', game_id: gameId }),
    claimDraw: (gameId) => ({ type: 'claim_draw', game_id: gameId }),
    takebackOffer: (gameId) => ({ type: 'takeback_offer', game_id: gameId }),
    takebackAccept: (gameId) => ({ type: 'takeback_accept', game_id: gameId }),
    takebackDecline: (gameId) => ({ type: 'takeback_decline', game_id: gameId }),
    moretime: (gameId) => ({ type: 'moretime', game_id: gameId }),
    ping: () => ({ type: 'ping' }),
};

function clean(obj) {
    for (const k of Object.keys(obj)) {
        if (obj[k] === undefined || obj[k] === null || obj[k] === '') {
            delete obj[k];
        }
    }
    return obj;
}

// ---- What the server sends --------------------------------------------------------------------

// The room a frame belongs to, if any (snapshot, event, spectators, errors about a game).
export const gameIdOf = (msg) => msg.game_id ?? null;
export const eventVersion = (msg) => (typeof msg.version === 'number' ? msg.version : null);
export const welcomeToken = (msg) => msg.token ?? null;
export const readPlayer = (msg) => ({ id: msg.player?.id ?? '', name: msg.player?.name ?? '' });
export const welcomeGames = (msg) => (Array.isArray(msg.games) ? msg.games : []);
export const readError = (msg) => ({ code: msg.code ?? 'error', message: msg.message ?? '',
                                     gameId: msg.game_id ?? null, requestId: msg.id ?? null });
export const readSpectators = (msg) => msg.count ?? 0;
// Applies a presence push to the game's players (online, lag, the countdown of a claim against a
// player who left); true if anything changed.
export function applyPresence(g, msg) {
    let changed = false;
    for (const p of g.players) {
        const online = msg.online?.[p.seat];
        if (typeof online === 'boolean' && online !== p.online) {
            p.online = online;
            changed = true;
        }
        const lag = msg.lag?.[p.seat];
        if (lag !== undefined && lag !== p.lagMs) {
            p.lagMs = lag;
            changed = true;
        }
        const claimIn = msg.claim_in?.[p.seat] ?? null;
        if (claimIn !== p.claimIn || claimIn !== null) {
            p.claimIn = claimIn;
            p.claimAt = performance.now();
            changed = true;
        }
    }
    return changed;
}
export const readStarted = (msg) => ({ gameId: msg.game_id, variant: msg.variant, you: msg.you,
                                       vsComputer: msg.id === 'computer' });
export const readSeekCreated = (msg) => readSeek(msg.seek ?? {});
// Whether a frame answers one of this page's requests (it echoes the request's id) rather than
// being pushed (a seek announced again after a reload).
export const isReply = (msg) => msg.id !== undefined && msg.id !== null;
export const readSeekCancelled = (msg) => msg.seek_id;

export function readSeek(s) {
    return {
        id: s.seek_id, variant: s.variant, rules: s.rules ?? 'house', side: s.side ?? 'random',
        rounds: s.rounds ?? null, isPrivate: !!s.private, clock: s.clock ?? null,
        creator: { id: s.creator?.id ?? '', name: s.creator?.name ?? '?' }, createdAt: s.created_at,
        expiresAt: s.expires_at ?? null, rated: !!s.rated,
        rating: typeof s.rating === 'number' ? { rating: s.rating, rd: s.provisional ? 350 : 0 } : null,
    };
}

// The reply to lobby_subscribe: every open public seek (oldest first), the first page of the public
// games in progress (newest first) and how many of those there are in all.
export function readLobby(msg) {
    const games = readSummaries(msg.games);
    return { seeks: (msg.seeks ?? []).map(readSeek), games,
             gamesTotal: typeof msg.games_total === 'number' ? msg.games_total : games.length };
}

// What changes the lobby after its `lobby` (pushed to its subscribers, in the order things happen).
export const readSeekAdded = (msg) => readSeek(msg.seek ?? {});
export const readSeekRemoved = (msg) => msg.seek_id;
export const readGameAdded = (msg) => readGameSummary(msg.game ?? {});
export const readGameRemoved = (msg) => msg.game_id;
// The latest summaries of games whose counters or players changed (any public game, shown or not).
export const readGameChanged = (msg) => readSummaries(msg.games);

// The reply to lobby_games: a page of the games in progress from `offset`, and how many there are.
export function readLobbyGames(msg) {
    const games = readSummaries(msg.games);
    return { offset: msg.offset ?? 0, total: typeof msg.total === 'number' ? msg.total : null, games };
}

export function readGameSummary(g) {
    return {
        id: g.game_id, variant: g.variant, rules: g.rules ?? 'house',
        players: readSummaryPlayers(g.players), moves: g.moves ?? 0, spectators: g.spectators ?? 0,
        clock: g.clock ?? null, rated: !!g.rated,
        // A game against the computer: the seat it plays and its level.
        bot: g.bot && typeof g.bot === 'object' ? { seat: g.bot.seat ?? '', level: g.bot.level ?? null } : null,
    };
}

const readSummaries = (games) => (Array.isArray(games) ? games : []).map(readGameSummary);

// A game summary's players come as {seat: {id, name}} or {seat: "name"}: keep seat → name.
function readSummaryPlayers(players) {
    const out = [];
    if (Array.isArray(players)) {
        for (const p of players) {
            out.push({ seat: p.seat ?? '', name: p.name ?? '?' });
        }
        return out;
    }
    for (const [seat, p] of Object.entries(players ?? {})) {
        out.push({ seat, name: typeof p === 'string' ? p : (p?.name ?? '?') });
    }
    return out;
}

function readBoard(b) {
    if (!b || !Array.isArray(b.squares)) {
        return null;
    }
    return { files: b.files, ranks: b.ranks, squares: b.squares.slice(),
             reserves: Array.isArray(b.reserves) ? b.reserves.slice() : [0, 0] };
}

// Chessence: {square: "rbn"} for every man (what it may move as now); null in other games.
function readPowers(p) {
    return p && typeof p === 'object' ? { ...p } : null;
}

function readResult(r) {
    return r ? { winner: r.winner ?? null, reason: r.reason ?? '' } : null;
}

// Sniderman seats are "player0"/"player1"; accept 0/1 too.
const seatOf = (x) => (typeof x === 'number' ? `player${x}` : x ?? null);
// A seat's place in per-seat arrays: White or player0 first.
export const seatIndex = (seat) => (seat === 'black' || seatOf(seat) === 'player1' ? 1 : 0);

function readMatch(m) {
    if (!m) {
        return null;
    }
    return {
        rounds: m.rounds, round: m.round, phase: m.phase, namer: seatOf(m.namer),
        chooser: seatOf(m.chooser), odd: seatOf(m.odd), even: seatOf(m.even),
        objects: (m.objects ?? []).map((o) => ({ object: o.object, text: o.text ?? '',
                                                 available: o.available !== false })),
        object: m.object || null, score: Array.isArray(m.score) ? m.score.slice() : [0, 0],
        records: (m.records ?? []).map((r) => ({ start: r.start, object: r.object, odd: seatOf(r.odd),
                                                 moves: r.moves ?? [], winner: seatOf(r.winner),
                                                 why: r.why ?? '' })),
        winner: seatOf(m.winner),
    };
}

// A snapshot becomes the client's whole record of a room.
export function readSnapshot(msg) {
    const board = readBoard(msg.board);
    const moves = Array.isArray(msg.moves) ? msg.moves.slice() : [];
    return {
        gameId: msg.game_id, version: msg.version ?? 0, variant: msg.variant,
        rules: msg.rules ?? 'house',
        players: (msg.players ?? []).map((p) => ({ seat: p.seat, id: p.id, name: p.name ?? '?',
                                                   online: !!p.online, lagMs: p.lag_ms ?? null,
                                                   bot: !!p.bot, level: p.bot ? p.level ?? null : null,
                                                   claimIn: p.claim_in ?? null, claimAt: performance.now() })),
        startFen: msg.start_fen ?? '', fen: msg.fen ?? '', moves, toMove: msg.to_move ?? null,
        board, legal: Array.isArray(msg.legal) ? msg.legal.slice() : [], inCheck: !!msg.in_check,
        powers: readPowers(msg.powers), result: readResult(msg.result), drawOffer: msg.draw_offer ?? null,
        rematchOffer: msg.rematch_offer ?? null, rematchGameId: msg.rematch_game_id ?? null,
        takebackOffer: msg.takeback_offer ?? null,
        // Time: the control, the last clock reading and when it arrived, the first-move abort.
        timeControl: msg.time_control ?? null, clock: msg.clock ?? null, clockAt: performance.now(),
        rated: !!msg.rated,
        abortIn: msg.abort_in ?? null, abortAt: performance.now(),
        spectators: msg.spectators ?? 0,
        chat: (msg.chat ?? []).map(readChatLine),
        spectatorChat: msg.spectator_chat ?? true,
        match: readMatch(msg.match),
        // Issue 43: the arena a game belongs to, whether its players may berserk, and who did
        // ([white, black], Sniderman [player0, player1]).
        tournamentId: msg.tournament_id ?? null, berserkable: !!msg.berserkable,
        berserk: Array.isArray(msg.berserk) ? [!!msg.berserk[0], !!msg.berserk[1]] : [false, false],
        // history[i]: the position after i plies (0 = start); null where not known yet.
        history: historyFromSnapshot(msg, board, moves),
        roundWinners: [],
    };
}

// The position after every ply, from the snapshot's position strings.
function historyFromSnapshot(msg, board, moves) {
    const history = new Array(moves.length + 1).fill(null);
    const fens = Array.isArray(msg.positions) ? msg.positions : [];
    for (let ply = 0; ply < history.length && ply < fens.length; ply++) {
        const shown = boardFromFen(msg.variant, fens[ply]);
        if (shown) {
            history[ply] = { fen: fens[ply], board: shown, move: ply > 0 ? moves[ply - 1] : null };
        }
    }
    history[moves.length] = { fen: msg.fen ?? '', board, move: moves[moves.length - 1] ?? null };
    return history;
}

// The chat lines a viewer keeps (a snapshot's and a catch-up's hold at most as many).
export const chatLinesKept = 50;

// A chat line (a `chat` message's `line`, or one of a snapshot's): not a room event, so no version.
export function readChatLine(c) {
    return { from: c?.from ?? '?', spectator: c?.channel === 'spectators' || c?.seat === null,
             text: c?.text ?? '', at: c?.at };
}

// Adds a `chat` message's line to the record `g`, keeping the newest lines.
export function applyChat(g, msg) {
    g.chat.push(readChatLine(msg.line));
    if (g.chat.length > chatLinesKept) {
        g.chat.splice(0, g.chat.length - chatLinesKept);
    }
}

// Applies a catch-up (`events`: what a watcher missed, then the position it left the room in, and
// the chat whole). Returns the kinds of the events applied, in order.
export function applyEvents(g, msg) {
    const kinds = [];
    if (Array.isArray(msg.chat)) {
        g.chat = msg.chat.map(readChatLine);
    }
    for (const entry of msg.events ?? []) {
        const kind = applyEvent(g, { version: entry.version, event: entry.event });
        if (kind) {
            kinds.push(kind);
        }
    }
    const p = msg.position;
    if (p && (msg.version ?? 0) >= g.version) {
        if (p.clock !== undefined) {
            setClock(g, p.clock);
        }
        g.fen = p.fen ?? g.fen;
        g.board = readBoard(p.board) ?? g.board;
        g.toMove = p.to_move ?? null;
        g.legal = Array.isArray(p.legal) ? p.legal.slice() : [];
        g.inCheck = !!p.in_check;
        g.powers = readPowers(p.powers);
        g.history[g.moves.length] = { fen: g.fen, board: g.board, move: g.moves.at(-1) ?? null };
    }
    return kinds;
}

// Applies one room event to the record `g` (mutating it). Returns the event's kind, or null for an
// event at or below g.version (already applied). A live event carries the position after it; an
// event of a catch-up carries at most its position string (a move), the frame the rest.
export function applyEvent(g, msg) {
    const e = msg.event ?? {};
    const version = msg.version ?? 0;
    if (version <= g.version) {
        return null;
    }
    g.version = version;
    switch (e.kind) {
    case 'move': {
        g.moves.push(e.move);
        g.fen = e.fen ?? g.fen;
        g.board = readBoard(e.board) ?? boardFromFen(g.variant, e.fen) ?? g.board;
        g.toMove = e.to_move ?? null;
        g.legal = Array.isArray(e.legal) ? e.legal.slice() : [];
        g.inCheck = !!e.in_check;
        g.powers = readPowers(e.powers);
        g.history[g.moves.length] = { fen: g.fen, board: g.board, move: e.move, powers: g.powers };
        g.drawOffer = null;
        g.takebackOffer = null;
        setClock(g, e.clock);
        g.lastEvent = { kind: 'move', by: e.by ?? null, move: e.move, capture: /x/.test(e.move ?? '') };
        break;
    }
    case 'game_over':
        g.result = readResult(e.result);
        g.legal = [];
        g.drawOffer = null;
        g.takebackOffer = null;
        setClock(g, e.clock ?? (g.clock && { ...g.clock, running: null }));
        if (g.match && e.result?.reason === 'match_won') {
            g.match.phase = 'finished';
        }
        if (g.match && /^player[01]$/.test(String(e.result?.winner))) {
            g.match.winner = e.result.winner;
        }
        break;
    case 'draw_offered': g.drawOffer = e.by ?? null; break;
    case 'draw_declined': g.drawDeclinedBy = e.by ?? null; g.drawOffer = null; break;
    case 'rematch_offered': g.rematchOffer = e.by ?? null; break;
    case 'rematch_started': g.rematchGameId = e.new_game_id ?? null; break;
    case 'takeback_offered': g.takebackOffer = e.by ?? null; break;
    case 'takeback_declined': g.takebackOffer = null; break;
    case 'takeback': applyTakeback(g, e); break;
    case 'moretime': setClock(g, e.clock); break;
    case 'berserk': // issue 43: a tournament player's cut clock
        setClock(g, e.clock);
        g.berserk[seatIndex(e.by)] = true;
        break;
    case 'chat': break;  // legacy: chat lines were events before issue 23; chat now comes apart
    case 'spectator_chat': g.spectatorChat = !!e.open; break;
    case 'round_started': applyRoundStarted(g, e); break;
    case 'object_named':
        setClock(g, e.clock);
        if (g.match) {
            g.match.object = e.object;
            g.match.phase = 'choosing';
            const o = g.match.objects.find((x) => x.object === e.object);
            if (o) {
                o.available = false;
                o.text = e.text ?? o.text;
            }
        }
        break;
    case 'side_chosen':
        setClock(g, e.clock);
        if (g.match) {
            g.match.odd = seatOf(e.odd);
            g.match.even = seatOf(e.even);
            g.match.phase = 'playing';
        }
        g.toMove = e.to_move ?? 'odd';
        g.legal = Array.isArray(e.legal) ? e.legal.slice() : [];
        g.powers = readPowers(e.powers);
        break;
    case 'round_over':
        if (g.match) {
            g.match.score = Array.isArray(e.score) ? e.score.slice() : g.match.score;
        }
        g.roundWinners.push({ round: e.round, winner: e.winner, player: seatOf(e.winner_player),
                              object: g.match?.object ?? null, why: e.why ?? '',
                              moves: g.moves.slice() });
        g.legal = [];
        break;
    default: break;
    }
    return e.kind ?? null;
}

// A clock reading as it arrives: the running seat counts down from now. In a real-time game a
// reading in which no clock runs means a first move is still due (within 30 s, or the server aborts).
function setClock(g, clock) {
    if (!clock) {
        return;
    }
    const now = performance.now();
    g.clock = { ...clock };
    g.clockAt = now;
    const realTime = g.timeControl && !g.timeControl.days;
    g.abortIn = realTime && !g.result && clock.running === null ? 30000 : null;
    g.abortAt = now;
}

// A takeback: the last `plies` moves leave; the position is the one after the moves kept (sent with
// a live event, else known from the history); the clocks are put back.
function applyTakeback(g, e) {
    const plies = Math.min(e.plies ?? 1, g.moves.length);
    g.moves.splice(g.moves.length - plies, plies);
    g.history.length = g.moves.length + 1;
    const known = g.history[g.moves.length];
    g.fen = e.fen ?? known?.fen ?? g.fen;
    g.board = readBoard(e.board) ?? known?.board ?? boardFromFen(g.variant, g.fen) ?? g.board;
    g.toMove = e.to_move ?? (g.moves.length % 2 === 0 ? 'white' : 'black');
    g.legal = Array.isArray(e.legal) ? e.legal.slice() : [];
    g.inCheck = !!e.in_check;
    g.powers = readPowers(e.powers);
    g.history[g.moves.length] = { fen: g.fen, board: g.board, move: g.moves.at(-1) ?? null };
    g.drawOffer = null;
    g.takebackOffer = null;
    setClock(g, e.clock);
}

function applyRoundStarted(g, e) {
    g.board = readBoard(e.board) ?? boardFromFen(g.variant, e.fen) ?? g.board;
    g.fen = e.fen ?? g.fen;
    g.startFen = g.fen;
    g.moves = [];
    g.legal = [];
    g.toMove = null;
    g.history = [{ fen: g.fen, board: g.board, move: null }];
    if (g.match) {
        g.match.round = e.round ?? g.match.round + 1;
        g.match.phase = 'naming';
        g.match.namer = seatOf(e.namer);
        g.match.chooser = g.match.namer === 'player0' ? 'player1' : 'player0';
        g.match.object = null;
        g.match.odd = null;
        g.match.even = null;
        if (Array.isArray(e.available_objects)) {
            const open = new Set(e.available_objects.map((o) => (typeof o === 'object' ? o.object : o)));
            for (const o of g.match.objects) {
                o.available = open.has(o.object);
            }
        }
    }
}

// ---- Position strings (display only: no rules) --------------------------------------------------

// Reads the placement part of a position string into the `board` shape the server sends.
export function boardFromFen(variant, fen) {
    const dims = { chessence: [6, 9], chesica: [8, 8], sniderman: [4, 4] }[variant];
    if (!dims || !fen) {
        return null;
    }
    const [files, ranks] = dims;
    const head = fen.split(' ')[0];
    const bracket = head.indexOf('[');
    const placement = bracket >= 0 ? head.slice(0, bracket) : head;
    const reserveText = bracket >= 0 ? head.slice(bracket + 1, head.indexOf(']')) : '';
    const rows = placement.split('/');
    if (rows.length !== ranks) {
        return null;
    }
    const squares = new Array(files * ranks).fill('');
    for (let i = 0; i < ranks; i++) {
        const rank = ranks - 1 - i;
        let file = 0;
        const row = rows[i];
        for (let j = 0; j < row.length && file <= files; j++) {
            const c = row[j];
            if (c >= '0' && c <= '9') {
                file += Number(c);
            } else if (c === '+') {
                squares[rank * files + file] = '+' + row[++j];
                file++;
            } else {
                squares[rank * files + file] = c;
                file++;
            }
        }
    }
    const reserves = [[...reserveText].filter((c) => c === 'M').length,
                      [...reserveText].filter((c) => c === 'm').length];
    return { files, ranks, squares, reserves };
}

// ---- HTTP API (docs/protocol.md, "HTTP") ------------------------------------------------------

export const api = {
    // The position reached from `fen` (the variant's start when empty) by `moves`.
    legalUrl: ({ variant, fen = '', moves = [], rules = null }) => {
        const q = [`variant=${encodeURIComponent(variant)}`];
        if (fen) {
            q.push(`fen=${encodeURIComponent(fen)}`);
        }
        if (moves.length) {
            q.push(`moves=${encodeURIComponent(moves.join(','))}`);
        }
        if (rules) {
            q.push(`rules=${encodeURIComponent(rules)}`);
        }
        return `/api/legal?${q.join('&')}`;
    },
    gameUrl: (gameId) => `/api/games/${encodeURIComponent(gameId)}`,
    pgnUrl: (gameId) => `/api/games/${encodeURIComponent(gameId)}.pgn`,
    analysisUrl: (gameId) => `/api/games/${encodeURIComponent(gameId)}/analysis`,
    seekUrl: (seekId) => `/api/seeks/${encodeURIComponent(seekId)}`,
    playerUrl: (playerId) => `/api/players/${encodeURIComponent(playerId)}`,
    puzzleCountsUrl: () => '/api/puzzles',
    // `which`: 'daily', 'random' or a puzzle id; `exclude`: ids a random pick should avoid.
    puzzleUrl: (game, which, exclude = []) => {
        const base = `/api/puzzles/${encodeURIComponent(game)}/${encodeURIComponent(which)}`;
        return which === 'random' && exclude.length
            ? `${base}?exclude=${exclude.map(encodeURIComponent).join(',')}` : base;
    },
};

// GET /api/legal: a position with its legal moves, check state and (Chessence) powers.
export function readLegal(j) {
    return { variant: j.variant, fen: j.fen ?? '', board: readBoard(j.board), toMove: j.to_move ?? null,
             legal: Array.isArray(j.legal) ? j.legal.slice() : [], inCheck: !!j.in_check,
             powers: readPowers(j.powers) };
}

// GET /api/games/<id>: what the lobby needs to name a game of yours.
export function readGameInfo(j) {
    return { id: j.game_id, variant: j.variant, rules: j.rules ?? 'house', status: j.status ?? 'active',
             isPrivate: !!j.private,
             players: (j.players ?? []).map((p) => ({ seat: p.seat, id: p.id, name: p.name ?? '?' })),
             moves: Array.isArray(j.moves) ? j.moves.length : 0, result: readResult(j.result) };
}

// GET/POST /api/games/<id>/analysis (docs/protocol.md, "Game analysis"): {status: 'queued'|'running',
// positions: {done, total}} while it waits or runs; once done also the plies (each with its `round`
// in Sniderman), the start's evaluation, each seat's accuracy and (Sniderman) the rounds.
export function readAnalysis(j) {
    const status = ['queued', 'running', 'done'].includes(j?.status) ? j.status : 'queued';
    const positions = j?.positions ? { done: Number(j.positions.done) || 0, total: Number(j.positions.total) || 0 } : null;
    const start = (s) => ({ eval: s?.eval ?? null, win: Number(s?.win ?? 50) });
    return {
        status, positions, variant: j?.variant ?? '', exact: !!j?.exact, nodes: j?.nodes ?? null,
        start: start(j?.start),
        plies: (Array.isArray(j?.plies) ? j.plies : []).map((p) => ({
            ply: Number(p.ply) || 0, round: p.round ?? null, move: String(p.move ?? ''), by: p.by ?? '',
            eval: p.eval ?? null, win: Number(p.win ?? 50), best: p.best ?? null,
            pv: Array.isArray(p.pv) ? p.pv.map(String) : [],
            judgement: ['inaccuracy', 'mistake', 'blunder'].includes(p.judgement) ? p.judgement : null,
        })),
        accuracy: j?.accuracy && typeof j.accuracy === 'object' ? { ...j.accuracy } : {},
        rounds: (Array.isArray(j?.rounds) ? j.rounds : []).map((r) => ({
            round: Number(r.round) || 0, fen: r.fen ?? '', object: r.object ?? null, odd: seatOf(r.odd),
            even: seatOf(r.even), start: start(r.start),
        })),
    };
}

// GET /api/players/<id>: the player's rating in `variant` ({rating, rd}); an account that has not
// played a rated game of it yet starts from 1500 with RD 350 (provisional); null for a guest.
export function readPlayerRating(j, variant) {
    if (!j?.account) {
        return null;
    }
    const r = j.ratings?.[variant];
    return r && typeof r.rating === 'number' ? { rating: r.rating, rd: Number(r.rd ?? 350) } : { rating: 1500, rd: 350 };
}

export const readApiError = (j) => j?.error ?? '';
export const readApiCode = (j) => (typeof j?.code === 'string' ? j.code : '');

// GET /api/puzzles: how many puzzles of each game the server has ({chessence: n, …}).
export function readPuzzleCounts(j) {
    return Object.fromEntries(VARIANTS.map((v) => [v, Number(j?.games?.[v]) || 0]));
}

// GET /api/puzzles/<game>/…: one puzzle (docs/puzzles.md). `solution` starts with the only winning
// move; `object` and `objectText` only in Sniderman.
export function readPuzzle(j) {
    return { id: String(j.id ?? ''), game: j.game, rules: j.rules ?? 'house', fen: j.fen ?? '',
             toMove: j.to_move ?? null, object: j.object ?? null, objectText: j.object_text ?? '',
             solution: Array.isArray(j.solution) ? j.solution.map(String) : [], eval: j.eval ?? null,
             date: j.date ?? null };
}
