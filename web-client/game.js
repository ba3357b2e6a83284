// The game page: board, players, status, move list with review, actions, chat, and (Sniderman) the
// match panel. It keeps the room's record from the snapshot plus events, resuming after a reconnect
// from the last version applied; plays sounds, calls a hidden tab's attention, and runs premoves.
import { applyChat, applyEvent, applyEvents, applyPresence, build, readSnapshot, readSpectators } from './protocol.js';
import { h, missingGame } from './ui.js';
import { matchPremove } from './premove.js';
import { buildGameLayout } from './game_layout.js';
import { renderGame } from './game_render.js';
import { play } from './sound.js';
import { attention, setTitle } from './notify.js';
import { prefs } from './settings.js';
import { moveSquares } from './squares.js';
import { renderRatingChange } from './rating_view.js';
import { gameArrivals } from './game_arrivals.js';

export class GamePage {
    constructor(app, root, gameId) {
        this.app_ = app;
        this.root_ = root;
        this.gameId_ = gameId;
        this.g_ = null;
        this.you_ = null;      // the seat from game_started, until the snapshot tells
        this.viewPly_ = null;  // null: live; else the ply shown while reviewing
        this.flip_ = false;
        this.premove_ = null;  // {drop, squares, offline?}: one move waiting for the user's turn
        this.pending_ = null;  // a move sent and not yet confirmed
        this.note_ = '';       // a one-off note under the status (a premove dropped, an offer declined)
        this.justStarted_ = false;
        this.loadRetry_ = null; // a timer: the server could not load the game, watch again
        this.loadAttempts_ = 0;
        this.ratings_ = new Map(); // player id → {rating, rd} | null: a rated game's player bars
        this.keyHandler_ = (e) => this.onKey_(e);
        this.prefsHandler_ = () => this.render_();
        this.connHandler_ = () => this.onConnection_();
    }

    enter() {
        setTitle('Game — Chessence');
        buildGameLayout(this);
        this.app_.conn.setKey(this.gameId_, new URLSearchParams(location.search).get('key'));
        this.app_.conn.watch(this.gameId_);
        document.addEventListener('keydown', this.keyHandler_);
        prefs.onChange(this.prefsHandler_);
        this.app_.conn.onState(this.connHandler_);
    }

    leave() {
        this.left_ = true;
        clearTimeout(this.loadRetry_);
        this.clocks_.stop();
        this.roundEnd_.stop();
        this.tournamentStrip_.stop();
        this.offerPrompt_.stop();
        this.app_.conn.unwatch(this.gameId_);
        document.removeEventListener('keydown', this.keyHandler_);
        this.resultCard_?.close();
    }

    onStarted(started) {
        if (started.gameId === this.gameId_) {
            this.you_ = started.you;
            this.justStarted_ = true;
        }
    }

    onError(err) {
        if (err.gameId && err.gameId !== this.gameId_) {
            return false;
        }
        if (err.code === 'no_such_game' && !this.g_) {
            this.showMissing_();
            return true;
        }
        if (err.code === 'forbidden' && !this.g_) {
            this.status_.replaceChildren(h('strong', {}, 'This game is private: open it with the link its players share.'));
            return true;
        }
        if (err.code === 'internal_error' && !this.g_) {
            // The game exists but the server could not load it: ask again, less and less often.
            this.status_.replaceChildren(h('strong', {}, 'The game could not be loaded; trying again…'));
            const delay = Math.min(2000 * 2 ** this.loadAttempts_++, 30000);
            clearTimeout(this.loadRetry_);
            this.loadRetry_ = setTimeout(() => {
                if (!this.left_ && !this.g_) {
                    this.app_.conn.watch(this.gameId_);
                }
            }, delay);
            return true;
        }
        if (err.code === 'no_draw_offer' && this.g_) {
            this.g_.drawOffer = null;
        }
        if (err.code === 'no_takeback_offer' && this.g_) {
            this.g_.takebackOffer = null;
        }
        this.pending_ = null;
        this.render_();
        return false;
    }

    // The game does not exist: a page that says so in place of the board, chat and controls.
    showMissing_() {
        setTitle('No such game — Chessence');
        this.clocks_.stop();
        this.resultCard_?.close();
        this.app_.conn.unwatch(this.gameId_);
        this.root_.replaceChildren(missingGame(this.gameId_));
    }

    onConnection_() {
        if (!this.left_ && this.g_) {
            this.render_();
        }
    }

    handle(msg) {
        if (msg.game_id !== this.gameId_) {
            return;
        }
        if (this.holdForSlide_(msg)) {
            return;
        }
        if (msg.type === 'snapshot') {
            this.g_ = readSnapshot(msg);
            this.ratingChange_ = msg.rating_change ?? this.ratingChange_ ?? null;
            this.pending_ = null;
            this.app_.conn.seen(this.gameId_, this.g_.version);
            if (this.justStarted_ && !this.g_.result) {
                play('start');
                this.justStarted_ = false;
            }
            this.loadRatings_();
            this.afterCatchUp_();
        } else if (msg.type === 'events' && this.g_) {
            const kinds = applyEvents(this.g_, msg);
            this.pending_ = null;
            if (kinds.includes('move')) {
                play(this.g_.lastEvent?.capture ? 'capture' : 'move');
            }
            if (kinds.includes('game_over')) {
                this.gameOver_(false);
            }
            this.afterCatchUp_();
        } else if (msg.type === 'event' && this.g_) {
            if (msg.version > this.g_.version + 1) {
                this.app_.conn.send(build.watch(this.gameId_, this.g_.version, this.app_.conn.keyOf(this.gameId_)));
                return;
            }
            const kind = applyEvent(this.g_, msg);
            if (kind) {
                this.onEventApplied_(kind, msg.event ?? {});
            }
        } else if (msg.type === 'chat' && this.g_) {
            applyChat(this.g_, msg);
            this.renderChat_();
        } else if (msg.type === 'rating_change') {
            this.ratingChange_ = msg.changes;
        } else if (msg.type === 'spectators' && this.g_) {
            this.g_.spectators = readSpectators(msg);
            this.renderMeta_?.();
        } else if (msg.type === 'presence' && this.g_) {
            if (applyPresence(this.g_, msg)) {
                this.render_();
            }
        }
        if (msg.type === 'snapshot' || msg.type === 'rating_change') {
            this.renderRating_();
        }
    }

    renderRating_() {
        renderRatingChange(this.ratingHost_, this.g_ ? this.ratingChange_ : null,
                           { meId: this.app_.me.id, nameOf: (s) => this.nameOf_(s) });
    }

    // After a snapshot or a catch-up: a move queued offline (or a premove) goes out if still legal.
    afterCatchUp_() {
        if (!this.maybePlayPremove_()) {
            this.render_();
        }
    }

    onEventApplied_(kind, e) {
        const g = this.g_;
        if (kind === 'move') {
            this.pending_ = null;
            play(g.inCheck ? 'check' : /x/.test(e.move ?? '') ? 'capture' : 'move');
            if (this.maybePlayPremove_()) {
                return;
            }
            if (this.isMyTurn_()) {
                attention(`Your move against ${this.opponentName_()}`);
                this.keepBoardInView_();
            }
        } else if (kind === 'round_started') {
            this.viewPly_ = null;
            this.premove_ = null;
            play('start');
        } else if (kind === 'side_chosen' || kind === 'object_named') {
            if (this.isMyTurn_() || this.mustChoose_()) {
                attention(`Your turn against ${this.opponentName_()}`);
            }
        } else if (kind === 'rematch_started' && !this.seat_()) {
            this.app_.toast('A rematch has started.');
        } else if (kind === 'draw_declined' && e.by !== this.seat_() && g.drawDeclinedBy && this.seat_()) {
            this.note_ = `${this.nameOf_(e.by)} declined your draw offer.`;
        } else if ((kind === 'draw_offered' || kind === 'takeback_offered') && e.by !== this.seat_() && this.seat_()) {
            // Heard as well as seen (offer_prompt.js shows it wherever the player is looking).
            play('notify');
            attention(kind === 'draw_offered' ? `${this.nameOf_(e.by)} offers a draw`
                                              : `${this.nameOf_(e.by)} asks to take back a move`);
        } else if (kind === 'moretime' && this.seat_()) {
            // The player given the time is told (the clock jumping alone says little).
            const mine = e.by === this.seat_();
            this.app_.toast(mine ? `You gave ${this.opponentName_()} 15 seconds.`
                                 : `${this.nameOf_(e.by)} gave you 15 more seconds.`);
        } else if (kind === 'spectator_chat' && !this.seat_()) {
            this.note_ = e.open ? 'The players opened the spectators\' chat.' : 'The players closed the spectators\' chat.';
        }
        if (kind === 'round_over') {
            const won = g.roundWinners.at(-1);
            this.roundEnd_.start({ board: g.board, capture: g.moves.at(-1) ?? null, moves: won.moves ?? g.moves,
                                   score: g.match?.score ?? [0, 0],
                                   won: { round: won.round, winner: won.player, side: won.winner, why: won.why },
                                   nameOf: (s) => this.nameOf_(s) });
        } else if (kind === 'side_chosen' || kind === 'game_over') {
            this.roundEnd_.finish(); // the board is needed for play, or the result takes over
        }
        if (kind === 'game_over') {
            this.gameOver_(true);
        }
        if (kind === 'game_over' || kind === 'round_over') {
            this.actionBar_.reset();
            this.premove_ = null;
        }
        this.render_();
    }

    // The game ended: the sound, the card over the board (for a live ending), the lobby's list.
    gameOver_(live) {
        play('end');
        this.premove_ = null;
        if (this.seat_()) {
            this.tournamentStrip_.returnSoon(); // a tournament game: back to the tournament
        }
        this.app_.myGames = this.app_.myGames.filter((id) => id !== this.gameId_);
        if (live) {
            this.showResultCard_ = true;
        }
    }

    // Plays the premove (or the move queued offline) when it is now a legal move; true if it went.
    maybePlayPremove_() {
        const pm = this.premove_;
        if (!pm || !this.isMyTurn_() || this.viewPly_ !== null) {
            return false;
        }
        if (pm.offline && this.app_.conn.state !== 'online') {
            return false;
        }
        const found = matchPremove(pm, this.g_.legal);
        this.premove_ = null;
        if (found?.move) {
            this.sendMove_(found.move);
            return true;
        }
        if (found?.choices) {
            this.render_();
            this.board_.preselect(pm.squares);
            return true;
        }
        this.note_ = `${pm.offline ? 'Your move' : 'Your premove'} ${pm.squares.join('-')} is no longer possible.`;
        return false;
    }

    setPremove_(premove) {
        this.premove_ = premove;
        this.note_ = '';
        this.render_();
    }

    // ---- Who is who ----------------------------------------------------------------------------

    seat_() {
        const mine = this.g_?.players.find((p) => p.id && p.id === this.app_.me.id);
        return mine?.seat ?? (this.app_.me.id ? null : this.you_);
    }

    nameOf_(seat) {
        return this.g_?.players.find((p) => p.seat === seat)?.name ?? (seat ?? '?');
    }

    opponentName_() {
        return this.g_?.players.find((p) => p.seat !== this.seat_())?.name ?? 'your opponent';
    }

    isMyTurn_() {
        const g = this.g_;
        const seat = this.seat_();
        if (!g || !seat || g.result) {
            return false;
        }
        if (g.variant === 'sniderman') {
            return g.match?.phase === 'playing' && g.match[g.toMove] === seat;
        }
        return g.toMove === seat;
    }

    // Sniderman: the viewer has to name the object or choose ODD/EVEN.
    mustChoose_() {
        const m = this.g_?.match;
        const seat = this.seat_();
        return !!(m && seat && !this.g_.result && ((m.phase === 'naming' && m.namer === seat)
                                                   || (m.phase === 'choosing' && m.chooser === seat)));
    }

    // The board's orientation for the whole game: Black (or Sniderman's second player, whatever side
    // they take in a round) sees it turned; the Flip button turns it for this page.
    flipped_() {
        const seat = this.seat_();
        return (seat === 'black' || seat === 'player1') !== this.flip_;
    }

    // ---- Moves ---------------------------------------------------------------------------------------

    send_(msg) {
        if (this.app_.conn.send(msg)) {
            return true;
        }
        this.app_.toast('Not connected — the page will catch up when the connection is back.');
        return false;
    }

    // A move entered on the board: sent now, or kept until the connection is back.
    sendMove_(move) {
        if (!this.app_.conn.send(build.move(this.gameId_, move))) {
            const { drop, squares } = moveSquares(move);
            this.premove_ = { drop, squares, offline: true };
            this.note_ = `You are offline: ${move} will be sent when the connection is back.`;
            this.render_();
            return;
        }
        this.note_ = '';
        this.pending_ = move;
        this.renderBoard_();
    }

    // On a narrow screen the board may be scrolled away (after chatting): bring it back when the
    // user has to move, unless they are typing (an empty chat box after a message sent is not typing)
    // or the move ended a Sniderman round (its result, shown with the events that came with the
    // move, is what to look at: checked on the next frame, once they are all applied).
    keepBoardInView_() {
        requestAnimationFrame(() => {
            const active = document.activeElement;
            const typing = active?.matches?.('input, textarea') && active.value.trim() !== '';
            if (typing || this.roundEnd_.shown || !window.matchMedia?.('(max-width: 899px)').matches) {
                return;
            }
            const box = this.boardHost_.getBoundingClientRect();
            if (box.top < 0 || box.bottom > window.innerHeight) {
                this.boardHost_.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
            }
        });
    }

    // ---- Review --------------------------------------------------------------------------------------

    review_(ply) {
        const g = this.g_;
        this.viewPly_ = ply === null || ply >= g.moves.length ? null : Math.max(0, ply);
        this.render_();
    }

    onKey_(e) {
        if (!this.g_ || e.defaultPrevented || e.target.closest?.('input, textarea, select, .board, dialog')) {
            return;
        }
        const current = this.viewPly_ ?? this.g_.moves.length;
        const moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: null };
        if (e.key in moves) {
            e.preventDefault();
            this.review_(moves[e.key]);
        }
    }
}

Object.assign(GamePage.prototype, renderGame, gameArrivals);
