// The HTTP API from the browser: fetches JSON and hands it to protocol.js's readers. Every call
// resolves to {ok: true, value} or {ok: false, status, error} — never throws.
import { api, readApiError, readGameInfo, readLegal, readSeek } from './protocol.js';

async function getJson(url) {
    let res;
    try {
        res = await fetch(url, { headers: { accept: 'application/json' } });
    } catch {
        return { ok: false, status: 0, error: 'The server cannot be reached.' };
    }
    let body = null;
    try {
        body = await res.json();
    } catch {
        body = null;
    }
    if (!res.ok || !body || typeof body !== 'object') {
        return { ok: false, status: res.status, error: readApiError(body) || `HTTP ${res.status}` };
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

export const fetchGame = async (gameId) => map(await getJson(api.gameUrl(gameId)), readGameInfo);
export const fetchSeek = async (seekId) => map(await getJson(api.seekUrl(seekId)), readSeek);
export const pgnUrl = (gameId) => api.pgnUrl(gameId);
