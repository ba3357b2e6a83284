// A tournament's page (/tournament/<id>, issue 43): what it is, a countdown to its start or end
// (ticking here from the server's seconds), its standings kept up to date from the pushed deltas,
// the buttons to join, withdraw or pause as fits the viewer, their game, the top games, the chat
// (chat_box.js, as the game page's) and, at the end, the podium. tournament_presence.js keeps the
// watch (and follows a pairing to the game).
import { buildTournament, readFinished, readPaired, readStandings, readTournament, readTournamentChat,
         tournamentRequest } from './protocol_tournament.js';
import { chatLinesKept } from './protocol.js';
import { ChatBox } from './chat_box.js';
import { h, missingPage, variantTitle } from './ui.js';
import { clockLabel } from './clock.js';
import { setTitle } from './notify.js';
import { STANDINGS_PAGE, durationText, pager, podium, standingsTable, statusText } from './tournament_view.js';
import { tournamentActions } from './tournament_actions.js';
import { DuelBoards } from './tournament_duels.js';

export class TournamentPage {
    constructor(app, root, id) {
        this.app_ = app;
        this.root_ = root;
        this.id_ = id ?? '';
        this.t_ = null;             // readTournament's record, kept up to date
        this.lines_ = new Map();    // player id → line
        this.page_ = 0;
        this.error_ = null;         // {code, message} of the last refused request
        this.offsetMs_ = 0;         // the server's clock minus this one's
        this.chatLines_ = [];       // the chat's newest lines, oldest first
    }

    enter() {
        setTitle('Tournament — Chessence');
        this.head_ = h('section', { class: 'card tournament-head' }, h('p', {}, 'Loading the tournament…'));
        this.standings_ = h('section', { class: 'card tournament-standings', 'aria-labelledby': 'standings-title' });
        // The side column: the top games or the podium (redrawn with the page), then the chat (kept,
        // so that a push never takes the focus from a line being typed).
        this.sideTop_ = h('div', { class: 'tournament-side-top' });
        this.chat_ = new ChatBox({ title: 'Chat', onSend: (text) => this.sendChat_(text) });
        this.chat_.renderLines([]);
        this.side_ = h('div', { class: 'tournament-side' }, this.sideTop_, this.chat_.el);
        this.duels_ = new DuelBoards(this.app_.conn);
        this.root_.append(h('div', { class: 'tournament-page', 'data-tournament': this.id_ },
                            this.head_, this.standings_, this.side_));
        this.app_.tournaments.watch(this.id_);
        this.ticker_ = setInterval(() => this.tick_(), 1000);
    }

    leave() {
        this.left_ = true;
        clearInterval(this.ticker_);
        this.duels_.stop();
        this.app_.tournaments.unwatch(this.id_);
    }

    // The account is known only after the welcome's handlers have all run.
    onWelcome() {
        setTimeout(() => !this.left_ && this.render_());
    }

    onError(err) {
        const r = tournamentRequest(err.requestId);
        if (r?.what === 'chat' && r.tournamentId === this.id_) {
            this.chat_.showError(err.message || 'The line was not sent.');
            return true;
        }
        if (r?.tournamentId === this.id_) {
            this.error_ = err;
            this.render_();
            return true;
        }
        if (err.code === 'no_such_tournament' && !this.t_) {
            this.root_.replaceChildren(missingPage({ title: 'No such tournament',
                text: `There is no tournament “${this.id_}” on this server.`,
                links: [{ href: '/tournaments', text: 'All tournaments', action: 'tournaments' }] }));
            return true;
        }
        return false;
    }

    handle(msg) {
        if (msg.game_id && this.duels_.handle(msg)) {
            return;
        }
        const mine = (msg.tournament?.id ?? msg.tournament_id) === this.id_;
        if (msg.type === 'tournament' && mine) {
            this.saw_(readTournament(msg));
        } else if (msg.type === 'tournament_standings' && mine && this.t_) {
            this.applyStandings_(readStandings(msg));
        } else if (msg.type === 'tournament_paired' && mine && this.t_?.me) {
            this.t_.me.gameId = readPaired(msg).gameId;
            this.render_();
        } else if (msg.type === 'tournament_finished' && mine && this.t_) {
            this.t_.info.status = 'finished';
            this.t_.podium = readFinished(msg).podium;
            this.render_();
        } else if (msg.type === 'tournament_chat' && mine) {
            this.chatLines_ = [...this.chatLines_, readTournamentChat(msg).line].slice(-chatLinesKept);
            this.chat_.renderLines(this.chatLines_);
        } else if (msg.type === 'ack' && tournamentRequest(msg.id)?.tournamentId === this.id_) {
            const { what } = tournamentRequest(msg.id);
            if (what === 'chat') {
                this.chat_.showError(null);
            } else {
                this.acked_(what);
            }
        }
    }

    // A line for the chat; false (and why, under the log) when it could not go out.
    sendChat_(text) {
        if (!this.app_.conn.send(buildTournament.chat(this.id_, text))) {
            this.chat_.showError('Not connected — try again in a moment.');
            return false;
        }
        this.chat_.showError(null);
        return true;
    }

    saw_(t) {
        this.t_ = t;
        this.lines_ = new Map(t.standings.map((l) => [l.playerId, l]));
        this.error_ = null;
        const info = t.info;
        if (info.secondsToStart !== null) {
            this.offsetMs_ = info.startsAt - info.secondsToStart * 1000 - Date.now();
        } else if (info.secondsToFinish !== null) {
            this.offsetMs_ = info.endsAt - info.secondsToFinish * 1000 - Date.now();
        }
        setTitle(`${info.name || 'Arena'} — Chessence`);
        this.chatLines_ = t.chat;
        this.chat_.renderLines(this.chatLines_);
        this.render_();
    }

    // A push: the changed lines replace theirs. A gap in the versions asks for the whole view again.
    applyStandings_(s) {
        const t = this.t_;
        if (s.version <= t.version) {
            return;
        }
        if (s.version > t.version + 1) {
            this.app_.conn.send(buildTournament.watch(this.id_));
            return;
        }
        t.version = s.version;
        t.info.players = s.players ?? t.info.players;
        t.info.status = s.status ?? t.info.status;
        t.duels = s.duels ?? t.duels;
        for (const line of s.changed) {
            this.lines_.set(line.playerId, line);
            if (t.me && line.playerId === t.me.playerId) {
                // A game more on the sheet: the game the player was in has ended.
                const gameId = line.games > t.me.games ? null : t.me.gameId;
                t.me = { ...line, gameId };
            } else if (!t.me && line.playerId === this.app_.me.id) {
                t.me = { ...line, gameId: null };
            }
        }
        this.render_();
    }

    acked_(what) {
        const t = this.t_;
        this.error_ = null;
        if (t?.me && what === 'pause') {
            t.me.status = 'paused';
        } else if (t?.me && what === 'withdraw') {
            t.me.status = 'withdrawn';
            if (t.info.status === 'created') {
                this.lines_.delete(t.me.playerId); // before the start a withdrawal leaves the list
                t.me = null;
            }
        }
        this.render_();
    }

    sorted_() {
        return [...this.lines_.values()].sort((a, b) => a.rank - b.rank);
    }

    render_() {
        const t = this.t_;
        if (!t || this.left_) {
            return;
        }
        const info = t.info;
        const signedIn = !!document.body.dataset.account;
        const actions = tournamentActions({
            info, me: t.me, error: this.error_, signedIn,
            send: (msg) => {
                this.error_ = null;
                if (!this.app_.conn.send(msg)) {
                    this.error_ = { code: 'offline', message: 'Not connected — try again in a moment.' };
                }
                this.render_();
            },
        });
        this.head_.replaceChildren(
            h('h1', {}, info.name || 'Arena'),
            h('p', { class: 'tournament-meta' },
              `${variantTitle(info.variant)} · ${info.clock ? clockLabel(info.clock) : '—'} · ${info.minutes} minutes · `
              + `${info.rated ? 'rated' : 'casual'}${info.berserkable ? ' · berserk allowed' : ''}`
              + `${info.isPrivate ? ' · private' : ''} · by ${info.createdBy}`),
            h('p', { class: 'tournament-status', 'data-status': info.status },
              h('strong', {}, statusText(info.status)), ' · ', h('span', { 'data-players': info.players },
                `${info.players} ${info.players === 1 ? 'player' : 'players'}`),
              info.pairingsClosed && info.status === 'started' ? ' · pairings closed' : ''),
            // Not a live region: a countdown read out every second would drown everything else.
            h('p', { class: 'countdown', 'data-countdown': '' }),
            actions);
        const lines = this.sorted_();
        this.page_ = Math.min(this.page_, Math.max(0, Math.ceil(lines.length / STANDINGS_PAGE) - 1));
        this.standings_.replaceChildren(h('h2', { id: 'standings-title' }, 'Standings'),
            standingsTable(lines, this.page_, this.app_.me.id),
            pager(this.page_, lines.length, (p) => {
                this.page_ = p;
                this.render_();
            }));
        // The top games while it is played (small live boards: tournament_duels.js).
        this.duels_.render(info.status === 'started' ? t.duels : []);
        this.sideTop_.replaceChildren(...(info.status === 'finished' ? [podium(t.podium ?? lines.slice(0, 3))] : []),
                                      ...(info.status === 'started' ? [this.duels_.el] : []));
        // Accounts talk (players or not) until the end; a guest reads.
        this.chat_.setOpen(signedIn && info.status !== 'finished',
                           info.status === 'finished' ? 'The tournament is over: its chat is closed'
                               : signedIn ? 'Say something…' : 'Sign in to chat');
        this.chat_.el.dataset.chat = info.status === 'finished' ? 'closed' : signedIn ? 'open' : 'sign-in';
        this.tick_();
    }

    tick_() {
        const el = this.head_?.querySelector('[data-countdown]');
        const info = this.t_?.info;
        if (!el || !info) {
            return;
        }
        const now = Date.now() + this.offsetMs_;
        el.textContent = info.status === 'created' ? `Starts in ${durationText(info.startsAt - now)}`
            : info.status === 'started' ? `Ends in ${durationText(info.endsAt - now)}` : 'The tournament is over.';
    }
}
