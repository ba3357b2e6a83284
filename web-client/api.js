// The HTTP API from the browser: fetches JSON and hands it to protocol.js's readers. Every call
// resolves to {ok: true, value} or {ok: false, status, code, error} — never throws (`code` is the
// server's error code when it sent one, else '').
import { api, readAnalysis, readApiCode, readApiError, readGameInfo, readLegal, readPlayerRating, readPuzzle,
         readPuzzleCounts, readSeek } from './protocol.js';
import { TOKEN_KEY, keyOf } from './socket.js';
import { readCreated, readTournamentList, tournamentApi } from './protocol_tournament.js';

// `path` with the game's access key, when it is a private game whose key this page knows.
export function withKey(path, gameId) {
    const key = keyOf(gameId);
    return key ? `${path}?key=${encodeURIComponent(key)}` : path;
}

// The game page's path (with the key of a private game).
export const gamePath = (gameId) => withKey(`/game/${encodeURIComponent(gameId)}`, gameId);

async function getJson(url, method = 'GET', form = null) {
    let res;
    try {
        // The session token lets a private game's players read it without its key (and names the
        // account that creates a tournament).
        const token = localStorage.getItem(TOKEN_KEY);
        const headers = { accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}),
                          ...(form !== null ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) };
        res = await fetch(url, { method, headers, ...(form !== null ? { body: form } : {}) });
    } catch {
        return { ok: false, status: 0, code: '', error: 'The server cannot be reached.' };
    }
    let body = null;
    try {
        body = await res.json();
    } catch {
        body = null;
    }
    if (!res.ok || !body || typeof body !== 'object') {
        return { ok: false, status: res.status, code: readApiCode(body),
                 error: readApiError(body) || `HTTP ${res.status}` };
    }
    return { ok: true, value: body };
}

const map = (result, read) => (result.ok ? { ok: true, value: read(result.value) } : result);

const legalCache = new Map();

// The position after `moves` from `fen`, with its legal moves (cached: positions never change).
export async function fetchLegal(query) {
    const url = api.legalUrl(query);
    if (!legalCache.has(url)) {
        legalCache.set(url, getJson(url).then((r) => {
            if (!r.ok) {
                legalCache.delete(url);
            }
            return map(r, readLegal);
        }));
        if (legalCache.size > 500) {
            legalCache.delete(legalCache.keys().next().value);
        }
    }
    return legalCache.get(url);
}

export const fetchGame = async (gameId) => map(await getJson(withKey(api.gameUrl(gameId), gameId)), readGameInfo);
// A player's rating in `variant` for the player bars: {rating, rd} or null (a guest, no rated game yet).
export const fetchRating = async (playerId, variant) => map(await getJson(api.playerUrl(playerId)),
                                                            (j) => readPlayerRating(j, variant));
export const fetchSeek = async (seekId) => map(await getJson(api.seekUrl(seekId)), readSeek);
export const pgnUrl = (gameId) => withKey(api.pgnUrl(gameId), gameId);
export const fetchPuzzleCounts = async () => map(await getJson(api.puzzleCountsUrl()), readPuzzleCounts);
// A puzzle of `game`: `which` is 'daily', 'random' (avoiding the `exclude` ids) or an id.
export const fetchPuzzle = async (game, which, exclude = []) => map(await getJson(api.puzzleUrl(game, which, exclude)),
                                                                    readPuzzle);
// The computer's analysis of a game: GET reads it (404 `not_analysed` before anyone asked), POST
// asks for it (202 queued/running, 200 done; errors with their code and the server's words).
export const fetchAnalysis = async (gameId) => map(await getJson(withKey(api.analysisUrl(gameId), gameId)), readAnalysis);
export const requestAnalysis = async (gameId) => map(await getJson(withKey(api.analysisUrl(gameId), gameId), 'POST'),
                                                     readAnalysis);
// Tournaments (docs/tournaments.md, "HTTP API"): the lists, and creating an arena from the form's
// fields (protocol_tournament.js's createBody) as the signed-in account.
export const fetchTournaments = async () => map(await getJson(tournamentApi.listUrl()), readTournamentList);
export const createTournament = async (body) => map(await getJson(tournamentApi.createUrl(), 'POST', body), readCreated);
