// Protocol v1, tournaments (docs/protocol.md "Tournaments", docs/tournaments.md "HTTP API"): the
// frames the browser sends about arenas and the records made of what the server sends. protocol.js
// holds everything else; together they are the only modules that know field names.

// A request's id says what it was and for which tournament ("tournament_join:t_…"), so that its
// ack or error is known for what it answers wherever it arrives.
const requestId = (what, tournamentId) => `tournament_${what}:${tournamentId}`;

// What an ack's or an error's id answered: {what: 'join'|'withdraw'|'pause'|'chat', tournamentId}
// or null.
export function tournamentRequest(id) {
    const m = /^tournament_(join|withdraw|pause|chat):(.+)$/.exec(typeof id === 'string' ? id : '');
    return m ? { what: m[1], tournamentId: m[2] } : null;
}

export const buildTournament = {
    watch: (id) => ({ type: 'tournament_watch', tournament_id: id }),
    unwatch: (id) => ({ type: 'tournament_unwatch', tournament_id: id }),
    join: (id, code) => ({ type: 'tournament_join', tournament_id: id, id: requestId('join', id),
                           ...(code ? { code } : {}) }),
    withdraw: (id) => ({ type: 'tournament_withdraw', tournament_id: id, id: requestId('withdraw', id) }),
    pause: (id) => ({ type: 'tournament_pause', tournament_id: id, id: requestId('pause', id) }),
    chat: (id, text) => ({ type: 'tournament_chat', tournament_id: id, text, id: requestId('chat', id) }),
    berserk: (gameId) => ({ type: 'berserk', game_id: gameId, id: 'berserk' }),
};

const num = (x, fallback = 0) => (typeof x === 'number' && Number.isFinite(x) ? x : fallback);

// A standings line; `gameId` only in the watcher's own line (`me`) while they are in a game.
export function readLine(l) {
    return {
        playerId: String(l?.player_id ?? ''), name: String(l?.name ?? '?'), rank: num(l?.rank),
        score: num(l?.score), rating: num(l?.rating), performance: num(l?.performance), games: num(l?.games),
        fire: !!l?.fire, status: ['active', 'paused', 'withdrawn'].includes(l?.status) ? l.status : 'active',
        sheet: typeof l?.sheet === 'string' ? l.sheet : '', gameId: l?.game_id ?? null,
    };
}

function readDuelPlayer(p) {
    return { playerId: String(p?.player_id ?? ''), name: String(p?.name ?? '?'), rank: num(p?.rank),
             rating: num(p?.rating) };
}

// The top games in progress: [{gameId, first, second}] (absent from older servers: []).
export function readDuels(list) {
    return (Array.isArray(list) ? list : []).filter((d) => typeof d?.game_id === 'string')
        .map((d) => ({ gameId: d.game_id, first: readDuelPlayer(d.first), second: readDuelPlayer(d.second) }));
}

// A line of the tournament's chat (`tournament.chat[]`, `tournament_chat.line`).
export function readTournamentChatLine(c) {
    return { playerId: String(c?.player_id ?? ''), from: String(c?.from ?? '?'), text: String(c?.text ?? ''),
             at: typeof c?.at === 'string' ? c.at : null };
}

// `tournament_chat`: one line said.
export const readTournamentChat = (msg) => ({ tournamentId: String(msg.tournament_id ?? ''),
                                              line: readTournamentChatLine(msg.line) });

const STATUSES = ['created', 'started', 'finished'];

// `tournament`: the whole view a watcher starts from.
export function readTournament(msg) {
    const t = msg.tournament ?? {};
    return {
        info: {
            id: String(t.id ?? ''), kind: t.kind ?? 'arena', name: String(t.name ?? ''), variant: t.variant ?? '',
            clock: t.clock ?? null, minutes: num(t.minutes), rated: !!t.rated, berserkable: !!t.berserkable,
            isPrivate: !!t.private, createdBy: String(t.created_by ?? ''),
            status: STATUSES.includes(t.status) ? t.status : 'created', startsAt: num(t.starts_at),
            endsAt: num(t.ends_at), secondsToStart: typeof t.seconds_to_start === 'number' ? t.seconds_to_start : null,
            secondsToFinish: typeof t.seconds_to_finish === 'number' ? t.seconds_to_finish : null,
            pairingsClosed: !!t.pairings_closed, players: num(t.players),
        },
        standings: (Array.isArray(msg.standings) ? msg.standings : []).map(readLine),
        version: num(msg.version), me: msg.me ? readLine(msg.me) : null,
        duels: readDuels(msg.duels ?? t.duels),
        podium: Array.isArray(msg.podium) ? msg.podium.map(readLine) : null,
        chat: (Array.isArray(msg.chat) ? msg.chat : []).map(readTournamentChatLine),  // oldest first
    };
}

// `tournament_standings`: the lines that changed since the last push.
export function readStandings(msg) {
    return { tournamentId: String(msg.tournament_id ?? ''), version: num(msg.version),
             players: typeof msg.players === 'number' ? msg.players : null,
             status: STATUSES.includes(msg.status) ? msg.status : null,
             changed: (Array.isArray(msg.changed) ? msg.changed : []).map(readLine),
             duels: Array.isArray(msg.duels) ? readDuels(msg.duels) : null };
}

export const readPaired = (msg) => ({ tournamentId: String(msg.tournament_id ?? ''), gameId: String(msg.game_id ?? ''),
                                      you: msg.you ?? null });
export const readFinished = (msg) => ({ tournamentId: String(msg.tournament_id ?? ''),
                                        podium: (Array.isArray(msg.podium) ? msg.podium : []).map(readLine) });

// ---- HTTP ----------------------------------------------------------------------------------------

export const tournamentApi = { listUrl: () => '/api/tournament', createUrl: () => '/api/tournament' };
const STATUS_NUMBERS = { 10: 'created', 20: 'started', 30: 'finished' };

// A tournament of GET /api/tournament (lichess's ArenaTournament).
function readListed(t) {
    return {
        id: String(t?.id ?? ''), name: String(t?.fullName ?? ''), variant: t?.variant?.key ?? '',
        clock: t?.clock ? { initial: num(t.clock.limit), increment: num(t.clock.increment) } : null,
        minutes: num(t?.minutes), players: num(t?.nbPlayers), startsAt: num(t?.startsAt),
        finishesAt: num(t?.finishesAt), status: STATUS_NUMBERS[t?.status] ?? 'created',
        isPrivate: !!t?.private, rated: !!t?.rated, berserkable: !!t?.berserkable,
        createdBy: String(t?.createdBy ?? ''), winner: t?.winner?.name ?? null,
    };
}

// GET /api/tournament: {created, started, finished}, each a list.
export function readTournamentList(j) {
    const list = (x) => (Array.isArray(x) ? x : []).map(readListed).filter((t) => t.id);
    return { created: list(j?.created), started: list(j?.started), finished: list(j?.finished) };
}

// POST /api/tournament answers the full view: its id is where to go.
export const readCreated = (j) => ({ id: String(j?.id ?? '') });

// The create form's values as lichess's form fields (application/x-www-form-urlencoded).
export function createBody(f) {
    const fields = {
        name: f.name, variant: f.variant, rules: f.variant === 'sniderman' ? undefined : f.rules,
        clockTime: f.minutes, clockIncrement: f.increment, minutes: f.duration, waitMinutes: f.waitMinutes,
        rated: String(!!f.rated), berserkable: String(!!f.berserkable), password: f.password || undefined,
    };
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) {
        if (v !== undefined && v !== null && v !== '') {
            body.set(k, String(v));
        }
    }
    return body.toString();
}
