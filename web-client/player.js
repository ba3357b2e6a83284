// The player page (/player/<id or username>) and the leaderboards (/leaderboard/<variant>), issue
// 16: ratings per game with RD, win/draw/loss, an SVG rating-history chart per game, and the
// finished games with filters and paging, each linking to its replay (the game page) and its PGN.
// Requests carry the token, so a player sees their own private games; nobody else does.
import { TOKEN_KEY } from './socket.js';
import { h, plural, variantLabel, reasonText } from './ui.js';
import { ratingChart, ratingText, signed } from './rating_view.js';
import { VARIANTS } from './protocol.js';

async function getJson(url) {
    const token = localStorage.getItem(TOKEN_KEY);
    const reply = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    if (!reply.ok) {
        throw new Error(reply.status === 404 ? 'not found' : `error ${reply.status}`);
    }
    return reply.json();
}

function resultFor(game, playerId) {
    const r = game.result;
    if (!r) {
        return { text: '—', key: '' };
    }
    const mine = game.players.find((p) => p.id === playerId);
    if (!r.winner) {
        return { text: '½–½', key: 'draw' };
    }
    const won = mine && (r.winner === mine.seat
        || (r.winner === 'white' && mine.seat === 'white') || (r.winner === 'black' && mine.seat === 'black'));
    return { text: won ? 'Won' : 'Lost', key: won ? 'win' : 'loss' };
}

// "27 Nov" this year, "27 Nov 2025" before: short enough for a phone's table.
function shortDate(seconds) {
    const d = new Date(seconds * 1000);
    const sameYear = d.getFullYear() === new Date().getFullYear();
    return d.toLocaleDateString([], { day: 'numeric', month: 'short', year: sameYear ? undefined : 'numeric' });
}

export class PlayerPage {
    constructor(app, root, key) {
        this.app_ = app;
        this.root_ = root;
        this.key_ = key;
        this.filters_ = { variant: '', result: '', rated: '', page: 1 };
        this.player_ = null;
    }

    enter() {
        document.title = 'Player — Chessence';
        this.head_ = h('section', { class: 'card player-head' }, h('p', {}, 'Loading…'));
        this.charts_ = h('section', { class: 'card player-charts', 'aria-label': 'Rating history' });
        this.games_ = h('section', { class: 'card player-games', 'aria-labelledby': 'games-title' });
        this.root_.append(h('div', { class: 'player-page' }, this.head_, this.charts_, this.games_));
        this.load_();
    }

    leave() {
        this.gone_ = true;
    }

    onWelcome() {
        this.load_(); // a new token may see other (private) games
    }

    async load_() {
        try {
            const player = await getJson(`/api/players/${encodeURIComponent(this.key_)}`);
            if (this.gone_) {
                return;
            }
            this.player_ = player;
            this.renderHead_();
            this.renderCharts_();
            await this.loadGames_();
        } catch (e) {
            this.head_.replaceChildren(h('h1', {}, 'Player'), h('p', { class: 'empty' },
                e.message === 'not found' ? 'There is no such player.' : 'The player could not be loaded.'));
        }
    }

    renderHead_() {
        const p = this.player_;
        document.title = `${p.name} — Chessence`;
        const t = p.tally;
        const rows = VARIANTS.filter((v) => p.ratings[v]).map((v) => {
            const r = p.ratings[v];
            return h('tr', { 'data-variant': v }, h('th', { scope: 'row' }, variantLabel(v)),
                h('td', { class: 'rating', 'data-rating': r.rating }, ratingText(r)),
                h('td', { class: 'rd' }, String(Math.round(r.rd))), h('td', {}, String(r.games)));
        });
        this.head_.replaceChildren(
            h('h1', {}, p.name, p.closed ? h('span', { class: 'badge' }, ' closed') : ''),
            h('p', { class: 'tally', 'data-games': t.games },
              `${plural(t.games, 'game')} · ${t.wins} won · ${t.draws} drawn · ${t.losses} lost`),
            rows.length === 0 ? h('p', { class: 'empty' }, p.account ? 'No rated games yet.' : 'Guests play casual games only.')
                : h('table', { class: 'list ratings' },
                    h('thead', {}, h('tr', {}, ...['Game', 'Rating', 'RD', 'Rated games'].map((x) => h('th', { scope: 'col' }, x)))),
                    h('tbody', {}, ...rows)),
            h('p', { class: 'form-note' }, 'A rating with “?” is provisional: its RD is above 110.'));
    }

    renderCharts_() {
        const history = this.player_.rating_history ?? {};
        const variants = VARIANTS.filter((v) => history[v]?.length);
        this.charts_.hidden = variants.length === 0;
        this.charts_.replaceChildren(h('h2', {}, 'Rating history'), ...variants.map((v) => {
            const points = history[v];
            const last = points.at(-1);
            return h('figure', { class: 'chart', 'data-variant': v },
                ratingChart(points, { label: `${variantLabel(v)} rating history` }),
                h('figcaption', {}, `${variantLabel(v)}: ${Math.round(last.rating)} after ${plural(points.length, 'rated game')} (last change ${signed(last.change)})`));
        }));
    }

    query_() {
        const f = this.filters_;
        const q = new URLSearchParams();
        for (const k of ['variant', 'result', 'rated']) {
            if (f[k]) {
                q.set(k, f[k]);
            }
        }
        return q;
    }

    async loadGames_() {
        const q = this.query_();
        q.set('page', String(this.filters_.page));
        const id = encodeURIComponent(this.player_.id);
        const list = await getJson(`/api/players/${id}/games?${q}`);
        if (!this.gone_) {
            this.renderGames_(list);
        }
    }

    renderGames_(list) {
        const f = this.filters_;
        const select = (name, options) => {
            const s = h('select', { name, 'aria-label': name }, ...options.map(([value, text]) =>
                h('option', { value, selected: f[name] === value ? '' : null }, text)));
            s.addEventListener('change', () => {
                f[name] = s.value;
                f.page = 1;
                this.loadGames_();
            });
            return s;
        };
        const filters = h('div', { class: 'row filters' },
            select('variant', [['', 'All games'], ...VARIANTS.map((v) => [v, variantLabel(v)])]),
            select('result', [['', 'Any result'], ['win', 'Won'], ['draw', 'Drawn'], ['loss', 'Lost']]),
            select('rated', [['', 'Rated and casual'], ['true', 'Rated'], ['false', 'Casual']]),
            h('a', { class: 'btn small', href: `/api/players/${encodeURIComponent(this.player_.id)}/games.pgn?${this.query_()}`,
                     download: `${this.player_.name}.pgn`, 'data-action': 'all-pgn' }, 'Download as PGN'));
        const rows = list.games.map((g) => {
            const res = resultFor(g, this.player_.id);
            const opponent = g.players.find((p) => p.id !== this.player_.id) ?? g.players[1];
            return h('tr', { 'data-game': g.game_id, 'data-result': res.key },
                h('td', { class: 'date' }, shortDate(g.finished_at)),
                h('td', {}, variantLabel(g.variant), g.rated ? ' · rated' : ''),
                h('td', {}, opponent ? h('a', { href: `/player/${encodeURIComponent(opponent.id)}` }, opponent.name) : '?'),
                h('td', { title: reasonText(g.result?.reason) }, res.text),
                h('td', {}, h('a', { class: 'btn small', href: `/game/${encodeURIComponent(g.game_id)}` }, 'Replay'), ' ',
                  h('a', { class: 'btn small', href: `/api/games/${encodeURIComponent(g.game_id)}.pgn`, download: `${g.game_id}.pgn` }, 'PGN')));
        });
        const prev = h('button', { type: 'button', class: 'btn small', disabled: f.page <= 1, 'data-action': 'prev' }, '← Newer');
        const next = h('button', { type: 'button', class: 'btn small', disabled: !list.has_more, 'data-action': 'next' }, 'Older →');
        prev.addEventListener('click', () => { f.page -= 1; this.loadGames_(); });
        next.addEventListener('click', () => { f.page += 1; this.loadGames_(); });
        this.games_.replaceChildren(h('h2', { id: 'games-title' }, 'Finished games'), filters,
            rows.length === 0 ? h('p', { class: 'empty' }, 'No finished games match.')
                : h('table', { class: 'list', 'data-list': 'player-games' },
                    h('thead', {}, h('tr', {}, ...['Date', 'Game', 'Opponent', 'Result', ''].map((x) => h('th', { scope: 'col' }, x)))),
                    h('tbody', {}, ...rows)),
            h('div', { class: 'row pager' }, prev, h('span', {}, `Page ${list.page}`), next));
    }
}

export class LeaderboardPage {
    constructor(app, root, variant) {
        this.app_ = app;
        this.root_ = root;
        this.variant_ = VARIANTS.includes(variant) ? variant : 'chessence';
    }

    enter() {
        document.title = 'Leaderboard — Chessence';
        const tabs = h('nav', { class: 'row tabs', 'aria-label': 'Games' }, ...VARIANTS.map((v) =>
            h('a', { class: `btn small${v === this.variant_ ? ' primary' : ''}`, href: `/leaderboard/${v}`,
                     'aria-current': v === this.variant_ ? 'page' : null }, variantLabel(v))));
        this.list_ = h('div', {}, h('p', {}, 'Loading…'));
        this.root_.append(h('section', { class: 'card leaderboard' }, h('h1', {}, 'Leaderboard'), tabs,
            h('p', { class: 'form-note' }, 'The top 50 players with an established rating (RD ≤ 110) who played a rated game in the last 90 days.'),
            this.list_));
        getJson(`/api/leaderboard/${this.variant_}`).then((board) => this.show_(board))
            .catch(() => this.list_.replaceChildren(h('p', { class: 'empty' }, 'The leaderboard could not be loaded.')));
    }

    // The established players ranked, then the provisional ones (RD above 110) unranked, each with
    // its own line; the empty text only when both lists are.
    show_(board) {
        const established = board.players ?? [];
        const provisional = board.provisional ?? [];
        const row = (p, rank) => h('tr', { 'data-player': p.id }, ...(rank ? [h('td', {}, String(p.rank))] : []),
            h('td', {}, h('a', { href: `/player/${encodeURIComponent(p.id)}` }, p.name)),
            h('td', { class: 'rating' }, ratingText(p)), h('td', {}, String(p.games)));
        const table = (list, players, rank) => h('table', { class: 'list', 'data-list': list },
            h('thead', {}, h('tr', {}, ...[...(rank ? ['#'] : []), 'Player', 'Rating', 'Games'].map((x) => h('th', { scope: 'col' }, x)))),
            h('tbody', {}, ...players.map((p) => row(p, rank))));
        if (established.length === 0 && provisional.length === 0) {
            this.list_.replaceChildren(h('p', { class: 'empty' },
                'No one here yet: play a rated game to appear. A rating is established (RD ≤ 110) after a number of rated games; until then it shows with a “?”.'));
            return;
        }
        const parts = [established.length > 0 ? table('leaderboard', established, true)
            : h('p', { class: 'empty', 'data-empty': 'established' }, 'No established ratings yet: a rating is established (RD ≤ 110) after a number of rated games.')];
        if (provisional.length > 0) {
            parts.push(h('section', { class: 'provisional', 'aria-labelledby': 'provisional-title' },
                h('h2', { id: 'provisional-title' }, 'Provisional'),
                h('p', { class: 'form-note' }, 'Fewer rated games, so the rating is still uncertain (RD above 110): it shows with a “?” and is not ranked yet.'),
                table('provisional', provisional, false)));
        }
        this.list_.replaceChildren(...parts);
    }

    leave() {}
}
