// Presence in tournaments (issue 43): while the player is in an arena that is not over (joined, not
// withdrawn) every page keeps watching it, so that the server counts them present and pairs them;
// the ids live in sessionStorage (a reload keeps them) and are watched again after every welcome.
// A pairing takes the player to the game at once, with a sound, whatever page they are on.
import { buildTournament, readFinished, readPaired, readStandings, readTournament,
         tournamentRequest } from './protocol_tournament.js';
import { play } from './sound.js';

const KEY = 'chessence.tournaments';

function stored() {
    try {
        const ids = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
        return new Set(Array.isArray(ids) ? ids.filter((x) => typeof x === 'string') : []);
    } catch {
        return new Set();
    }
}

export class TournamentPresence {
    constructor(app) {
        this.app_ = app;
        this.held_ = stored();      // the tournaments the player is in
        this.byPage_ = new Set();   // the tournaments the current page shows
        const { conn } = app;
        conn.on('welcome', () => {
            for (const id of new Set([...this.held_, ...this.byPage_])) {
                conn.send(buildTournament.watch(id));
            }
        });
        conn.on('tournament', (msg) => {
            const t = readTournament(msg);
            this.hold_(t.info.id, !!t.me && t.me.status !== 'withdrawn' && t.info.status !== 'finished');
        });
        conn.on('tournament_standings', (msg) => {
            const s = readStandings(msg);
            const mine = s.changed.find((l) => l.playerId === this.app_.me.id);
            if (s.status === 'finished') {
                this.hold_(s.tournamentId, false);
            } else if (mine) {
                this.hold_(s.tournamentId, mine.status !== 'withdrawn');
            }
        });
        conn.on('tournament_finished', (msg) => this.hold_(readFinished(msg).tournamentId, false));
        conn.on('tournament_paired', (msg) => this.paired_(readPaired(msg)));
        conn.on('ack', (msg) => {
            const r = tournamentRequest(msg.id);
            if (r?.what === 'withdraw') {
                this.hold_(r.tournamentId, false);
            } else if (r && r.what !== 'chat') {  // talking is not taking part
                this.hold_(r.tournamentId, true);
            }
        });
        conn.on('signed_out', () => {
            this.held_.clear();
            this.save_();
        });
    }

    // Whether the player is in tournament `id` (as far as this page knows).
    holds(id) {
        return this.held_.has(id);
    }

    // The page shows tournament `id`: watch it (again after each reconnect).
    watch(id) {
        this.byPage_.add(id);
        this.app_.conn.send(buildTournament.watch(id));
    }

    // The page leaves it: no more pushes unless the player is in it.
    unwatch(id) {
        this.byPage_.delete(id);
        if (!this.held_.has(id)) {
            this.app_.conn.send(buildTournament.unwatch(id));
        }
    }

    hold_(id, inIt) {
        if (!id || inIt === this.held_.has(id)) {
            return;
        }
        if (inIt) {
            this.held_.add(id);
        } else {
            this.held_.delete(id);
            if (!this.byPage_.has(id)) {
                this.app_.conn.send(buildTournament.unwatch(id));
            }
        }
        this.save_();
    }

    save_() {
        try {
            sessionStorage.setItem(KEY, JSON.stringify([...this.held_]));
        } catch {
            // Storage refused (private mode): presence lasts as long as this page.
        }
    }

    paired_(p) {
        if (!p.gameId) {
            return;
        }
        this.hold_(p.tournamentId, true);
        play('notify');
        const path = `/game/${encodeURIComponent(p.gameId)}`;
        if (location.pathname !== path) {
            this.app_.navigate(path);
        }
    }
}
