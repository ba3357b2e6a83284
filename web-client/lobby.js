// The lobby: the intro (landing.js), the new-game form (seek_form.js), accepting seeks, the open
// seeks, the games in progress, and the player's own seeks (with invitation links) and games.
import { build, isReply, readGameAdded, readGameChanged, readGameRemoved, readLobby, readLobbyGames,
         readSeekAdded, readSeekCreated, readSeekRemoved } from './protocol.js';
import { h, variantLabel, sideLabel, copyText, plural } from './ui.js';
import { MyGames } from './my_games.js';
import { setTitle } from './notify.js';
import { ratingText } from './rating_view.js';
import { clockLabel } from './clock.js';
import { aloneNote, renderIntro } from './landing.js';
import { seekForm } from './seek_form.js';

export class LobbyPage {
    constructor(app, root) {
        this.app_ = app;
        this.root_ = root;
        // The open public seeks (oldest first), the games in progress known (newest first: the
        // lobby's first page, the pages asked for since, the games started since) and how many
        // games are in progress in all.
        this.lobby_ = { seeks: [], games: [], gamesTotal: 0 };
        this.mySeeks_ = app.mySeeks; // seek id → seek, including private ones (not listed)
        this.myGames_ = new MyGames(app, () => this.renderLists_());
    }

    enter() {
        setTitle('Play — Chessence');
        this.root_.append(this.renderShell_());
        this.app_.conn.send(build.lobbySubscribe());
        this.renderLists_();
    }

    leave() {
        this.app_.conn.send(build.lobbyUnsubscribe());
    }

    onWelcome() {
        this.form_.setAccount(!!this.app_.account);
        this.app_.conn.send(build.lobbySubscribe());
        this.myGames_.refresh();
        this.renderLists_();
    }

    // `lobby` (the reply to lobby_subscribe) replaces the lists; the deltas after it change them.
    handle(msg) {
        switch (msg.type) {
        case 'lobby': this.sawLobby_(readLobby(msg)); break;
        case 'seek_added': this.seekAdded_(readSeekAdded(msg)); break;
        case 'seek_removed': this.seekRemoved_(readSeekRemoved(msg)); break;
        case 'game_added': this.gameAdded_(readGameAdded(msg)); break;
        case 'game_removed': this.gameRemoved_(readGameRemoved(msg)); break;
        case 'game_changed': this.gamesChanged_(readGameChanged(msg)); break;
        case 'lobby_games': this.morePage_(readLobbyGames(msg)); break;
        case 'seek_created': {
            const seek = readSeekCreated(msg);
            this.renderMine_();
            if (isReply(msg)) {
                this.app_.toast(seek.isPrivate ? 'Private game created: send the invitation link.'
                                               : 'Seek created: waiting for an opponent.');
            }
            break;
        }
        case 'seek_cancelled': this.renderMine_(); break;
        default: break;
        }
    }

    sawLobby_(lobby) {
        this.lobby_ = lobby;
        const listed = new Set(lobby.seeks.map((s) => s.id));
        for (const s of lobby.seeks) {
            if (s.creator.id === this.app_.me.id) {
                this.mySeeks_.set(s.id, s);
            }
        }
        for (const [id, s] of this.mySeeks_) {
            if (!s.isPrivate && !listed.has(id)) {
                this.mySeeks_.delete(id); // accepted or withdrawn
            }
        }
        this.renderLists_();
    }

    seekAdded_(seek) {
        if (!this.lobby_.seeks.some((s) => s.id === seek.id)) {
            this.lobby_.seeks.push(seek);
        }
        if (seek.creator.id === this.app_.me.id) {
            this.mySeeks_.set(seek.id, seek);
            this.renderMine_();
        }
        this.renderSeeks_();
    }

    seekRemoved_(id) {
        this.lobby_.seeks = this.lobby_.seeks.filter((s) => s.id !== id);
        const mine = this.mySeeks_.get(id);
        if (mine && !mine.isPrivate) {
            this.mySeeks_.delete(id); // accepted, cancelled, withdrawn or expired
            this.renderMine_();
        }
        this.renderSeeks_();
    }

    gameAdded_(game) {
        if (!this.lobby_.games.some((g) => g.id === game.id)) {
            this.lobby_.games.unshift(game);
            this.lobby_.gamesTotal++;
        }
        this.renderGames_();
    }

    gameRemoved_(id) {
        this.lobby_.games = this.lobby_.games.filter((g) => g.id !== id);
        // Every public game's end is told, shown or not: the total counts one fewer.
        this.lobby_.gamesTotal = Math.max(this.lobby_.gamesTotal - 1, 0);
        this.renderGames_();
        this.myGames_.gameEnded(id);
    }

    // New counters or players for the rows shown; games not shown are ignored.
    gamesChanged_(games) {
        const latest = new Map(games.map((g) => [g.id, g]));
        if (!this.lobby_.games.some((g) => latest.has(g.id))) {
            return;
        }
        this.lobby_.games = this.lobby_.games.map((g) => latest.get(g.id) ?? g);
        this.renderGames_();
    }

    // A page asked for with "Show more games": its games join the list (once each).
    morePage_(page) {
        const known = new Set(this.lobby_.games.map((g) => g.id));
        this.lobby_.games.push(...page.games.filter((g) => !known.has(g.id)));
        if (page.total !== null) {
            this.lobby_.gamesTotal = page.total;
        }
        this.renderGames_();
    }

    // ---- Create form ---------------------------------------------------------------------------

    renderShell_() {
        const form = seekForm({ send: (msg) => this.sendOrWarn_(msg), onComputer: (v) => this.app_.playComputer(v) });
        this.form_ = form;
        form.setAccount(!!this.app_.account);
        this.mineEl_ = h('section', { class: 'card mine', 'aria-labelledby': 'mine-title' });
        this.seeksEl_ = h('section', { class: 'card seeks', 'aria-labelledby': 'seeks-title' });
        this.gamesEl_ = h('section', { class: 'card games', 'aria-labelledby': 'games-title' });
        // Play on the intro: that game in the form, brought into view with its Create button ready.
        this.lobbyEl_ = h('div', { class: 'lobby' },
                          renderIntro({ onPlay: form.choose, onComputer: (v) => this.app_.playComputer(v) }),
                          h('div', { class: 'lobby-left' }, form.element, this.mineEl_),
                          h('div', { class: 'lobby-right' }, this.seeksEl_, this.gamesEl_));
        return this.lobbyEl_;
    }

    sendOrWarn_(msg) {
        if (!this.app_.conn.send(msg)) {
            this.app_.toast('Not connected yet — try again in a moment.');
        }
    }

    // ---- Lists ------------------------------------------------------------------------------------

    renderLists_() {
        this.renderMine_();
        this.renderSeeks_();
        this.renderGames_();
    }

    renderMine_() {
        const mine = [...this.mySeeks_.values()];
        const games = this.myGames_.rows();
        this.mineEl_.hidden = mine.length === 0 && games.length === 0;
        this.mineEl_.replaceChildren(h('h2', { id: 'mine-title' }, 'Yours'),
            ...mine.map((s) => this.mySeekRow_(s)), ...games);
    }

    renderSeeks_() {
        const me = this.app_.me.id;
        const open = this.lobby_.seeks.filter((s) => !s.isPrivate);
        // On a phone someone waiting comes first (pages.css): others' seeks, not one's own.
        this.lobbyEl_.classList.toggle('has-seeks', open.some((s) => s.creator.id !== me));
        this.seeksEl_.replaceChildren(h('h2', { id: 'seeks-title' }, 'Open seeks ',
                                        h('span', { class: 'badge' }, String(open.length))),
            open.length === 0 ? aloneNote()
                : h('table', { class: 'list', 'data-list': 'seeks' },
                    h('thead', {}, h('tr', {}, ...['Player', 'Game', 'Clock', 'Rules', 'They play', ''].map((t) =>
                        h('th', { scope: 'col' }, t)))),
                    h('tbody', {}, ...open.map((s) => {
                        const own = s.creator.id === me;
                        const button = own
                            ? h('button', { class: 'btn', type: 'button', 'data-cancel': s.id }, 'Cancel')
                            : h('button', { class: 'btn primary', type: 'button', 'data-accept': s.id,
                                            'aria-label': `Accept ${variantLabel(s.variant)} against ${s.creator.name}` },
                                'Accept');
                        button.addEventListener('click', () => this.sendOrWarn_(
                            own ? build.seekCancel(s.id) : build.seekAccept(s.id)));
                        return h('tr', { 'data-seek': s.id, 'data-variant': s.variant, class: own ? 'own' : '' },
                            h('td', {}, s.creator.name, s.rating ? ` (${ratingText(s.rating)})` : '',
                              own ? h('span', { class: 'you' }, ' (you)') : ''),
                            h('td', {}, variantLabel(s.variant), s.rounds ? ` · ${plural(s.rounds, 'round')}` : '',
                              s.rated ? ' · rated' : '', h('span', { class: 'rules-mark' }, s.rules === 'strict' ? ' · strict' : '')),
                            h('td', { 'data-clock': clockLabel(s.clock) }, clockLabel(s.clock)),
                            h('td', {}, s.variant === 'sniderman' ? '—' : s.rules === 'strict' ? 'Strict' : 'House'),
                            h('td', {}, sideLabel(s.side)), h('td', {}, button));
                    }))));
    }

    // The games known; a button asks for the next page while the server has more.
    renderGames_() {
        const live = this.lobby_.games;
        const total = Math.max(this.lobby_.gamesTotal, live.length);
        let more = '';
        if (total > live.length) {
            more = h('button', { class: 'btn', type: 'button', 'data-more-games': '' }, 'Show more games');
            more.addEventListener('click', () => this.sendOrWarn_(build.lobbyGames(this.lobby_.games.length, 50)));
        }
        const refocus = this.gamesEl_.contains(document.activeElement)
            && document.activeElement.matches('[data-more-games]');
        this.gamesEl_.replaceChildren(h('h2', { id: 'games-title' }, 'Games in progress ',
                                        h('span', { class: 'badge' }, String(total))),
            live.length === 0 ? h('p', { class: 'empty' }, 'No games are being played right now.')
                : h('ul', { class: 'game-list', 'data-list': 'games' }, ...live.map((g) => h('li', { 'data-game': g.id,
                                                                                              'data-bot-level': g.bot?.level },
                    h('a', { href: `/game/${encodeURIComponent(g.id)}`, class: 'game-link',
                             'aria-label': `Watch ${variantLabel(g.variant)}: ${this.vsText_(g, ' against ')}` },
                      h('span', { class: 'variant-tag' }, variantLabel(g.variant)),
                      h('span', { class: 'vs' }, this.vsText_(g, ' – ')),
                      h('span', { class: 'meta' }, `${clockLabel(g.clock)} · ${plural(g.moves, 'move')} · ${g.spectators} watching`),
                      h('span', { class: 'btn' }, 'Watch'))))),
            more);
        if (refocus && more) {
            more.focus(); // a redraw (a page arriving, a counter changing) keeps the keyboard's place
        }
    }

    // Who plays: "Ann – Bob", or for a game against the computer "Ann vs Computer level 3".
    vsText_(g, between) {
        if (!g.bot) {
            return g.players.map((p) => p.name).join(between);
        }
        const person = g.players.find((p) => p.seat !== g.bot.seat)?.name ?? '?';
        return `${person} vs Computer level ${g.bot.level}`;
    }

    mySeekRow_(s) {
        const link = this.app_.inviteLink(s.id);
        const input = h('input', { class: 'invite', readonly: '', value: link, 'aria-label': 'Invitation link' });
        const copy = h('button', { class: 'btn', type: 'button', 'data-copy': s.id }, 'Copy link');
        copy.addEventListener('click', () => copyText(link, input).then((ok) =>
            this.app_.toast(ok ? 'Invitation link copied.' : 'Select the link and copy it.')));
        const cancel = h('button', { class: 'btn', type: 'button', 'data-cancel': s.id }, 'Cancel');
        cancel.addEventListener('click', () => this.sendOrWarn_(build.seekCancel(s.id)));
        return h('div', { class: 'mine-row', 'data-my-seek': s.id, 'data-private': String(s.isPrivate) },
            h('div', { class: 'waiting' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }),
              `${variantLabel(s.variant)} · ${clockLabel(s.clock)}${s.rated ? ' · rated' : ''}${s.isPrivate ? ' · private' : ''}`
              + ' — waiting for an opponent'),
            input, s.isPrivate && s.expiresAt
                ? h('small', { class: 'muted' }, `Send this link to your opponent. It stays valid until ${new Date(s.expiresAt * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}, even if you reload.`)
                : '',
            h('div', { class: 'row' }, copy, cancel));
    }
}
