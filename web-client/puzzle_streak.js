// The puzzle streaks, kept in this browser (localStorage) per game: the current streak, the best,
// the ids solved and the ids failed. A puzzle counts once: the first time it is finished here
// (solved, or failed by a wrong first move or by showing the solution); playing it again later
// changes nothing. The ids seen in this tab (sessionStorage) are kept apart, for "Next puzzle".
const KEY = 'chessence.puzzles';
const SEEN_KEY = 'chessence.puzzles.seen';
const KEEP = 1000;       // ids kept per list and game (the bank has about 100 a game)
const EXCLUDE_MAX = 100; // the server reads at most 100 excluded ids

function readJson(storage, key) {
    try {
        const value = JSON.parse(storage.getItem(key) ?? '{}');
        return value && typeof value === 'object' ? value : {};
    } catch {
        return {};
    }
}

function writeJson(storage, key, value) {
    try {
        storage.setItem(key, JSON.stringify(value));
    } catch {
        // storage full or disabled: the streak lives only as long as the page
    }
}

const ids = (list) => (Array.isArray(list) ? list.filter((x) => typeof x === 'string') : []);

// `game`'s record: {current, best, solved: [id], failed: [id]} (zeros and empty lists when new).
export function streakOf(game) {
    const r = readJson(localStorage, KEY)[game] ?? {};
    const count = (n) => (Number.isInteger(n) && n > 0 ? n : 0);
    return { current: count(r.current), best: count(r.best), solved: ids(r.solved), failed: ids(r.failed) };
}

// 'solved', 'failed' or null: how the puzzle went the first time it was finished here.
export function resultOf(game, id) {
    const r = streakOf(game);
    return r.solved.includes(id) ? 'solved' : r.failed.includes(id) ? 'failed' : null;
}

// Records the first result of puzzle `id`: a solve adds one to the streak (and the best), a
// failure sets it to 0. Returns the record after it and whether this result counted (false when
// the puzzle had been finished before).
export function recordResult(game, id, solved) {
    const all = readJson(localStorage, KEY);
    const r = streakOf(game);
    if (r.solved.includes(id) || r.failed.includes(id)) {
        return { ...r, counted: false };
    }
    if (solved) {
        r.current += 1;
        r.best = Math.max(r.best, r.current);
        r.solved = [...r.solved, id].slice(-KEEP);
    } else {
        r.current = 0;
        r.failed = [...r.failed, id].slice(-KEEP);
    }
    all[game] = r;
    writeJson(localStorage, KEY, all);
    return { ...r, counted: true };
}

// Notes that puzzle `id` was shown in this tab.
export function markSeen(game, id) {
    const seen = readJson(sessionStorage, SEEN_KEY);
    const list = ids(seen[game]).filter((x) => x !== id);
    seen[game] = [...list, id].slice(-KEEP);
    writeJson(sessionStorage, SEEN_KEY, seen);
}

// The ids "Next puzzle" should avoid, most recent first: seen in this tab, then finished here;
// at most the 100 the server reads.
export function excludeIds(game) {
    const r = streakOf(game);
    const seen = ids(readJson(sessionStorage, SEEN_KEY)[game]);
    const recentFirst = [...seen.reverse(), ...[...r.solved, ...r.failed].reverse()];
    return [...new Set(recentFirst)].slice(0, EXCLUDE_MAX);
}

// The record in words: "Streak 3 · best 5 · 7 of 100 solved" (`total` when known).
export function streakWords(r, total = null) {
    return `Streak ${r.current} · best ${r.best} · ${r.solved.length}${total ? ` of ${total}` : ''} solved`;
}
