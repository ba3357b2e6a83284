// The game page: board, players, move list with review, actions, chat, spectators, and (Sniderman)
// the match panel. It keeps the room's record from the snapshot plus events, resuming after a
// reconnect from the last version applied.
import { Board } from './board.js';
import { applyEvent, applyEvents, applyPresence, build, readSnapshot, readSpectators } from './protocol.js';
import { MatchPanel } from './match_panel.js';
import { h, variantLabel, sideLabel, reasonText, copyText } from './ui.js';
import { renderMoveList } from './move_list.js';
import { ActionBar, renderPlayerBars } from './game_panels.js';
import { renderRatingChange } from './rating_view.js';

export class GamePage {
    constructor(app, root, gameId) {
        this.app_ = app;
        this.root_ = root;
        this.gameId_ = gameId;
        this.g_ = null;
        this.you_ = null;     // the seat from game_started, until the snapshot tells
        this.viewPly_ = null; // null: live; else the ply shown while reviewing
        this.flip_ = false;
        this.keyHandler_ = (e) => this.onKey_(e);
    }

    enter() {
        document.title = 'Game — Chessence';
        this.build_();
        this.app_.conn.watch(this.gameId_);
        document.addEventListener('keydown', this.keyHandler_);
    }

    leave() {
        this.app_.conn.unwatch(this.gameId_);
        document.removeEventListener('keydown', this.keyHandler_);
    }

    onStarted(started) {
        if (started.gameId === this.gameId_) {
            this.you_ = started.you;
        }
    }

    onError(err) {
        if (err.gameId && err.gameId !== this.gameId_) {
            return false;
        }
        if (err.code === 'no_such_game') {
            this.status_.replaceChildren(h('strong', {}, 'This game does not exist.'));
            return true;
        }
        if (err.code === 'no_draw_offer' && this.g_) {
            this.g_.drawOffer = null;
        }
        this.render_();
        return false;
    }

    handle(msg) {
        if (msg.game_id !== this.gameId_) {
            return;
        }
        if (msg.type === 'snapshot') {
            this.g_ = readSnapshot(msg);
            this.ratingChange_ = msg.rating_change ?? this.ratingChange_ ?? null;
            this.app_.conn.seen(this.gameId_, this.g_.version);
            this.render_();
        } else if (msg.type === 'events' && this.g_) {
            for (const kind of applyEvents(this.g_, msg)) {
                this.onEventApplied_(kind);
            }
            this.render_();
        } else if (msg.type === 'event' && this.g_) {
            if (msg.version > this.g_.version + 1) {
                this.app_.conn.send(build.watch(this.gameId_, this.g_.version));
                return;
            }
            const kind = applyEvent(this.g_, msg);
            if (kind) {
                this.onEventApplied_(kind, msg.event);
            }
        } else if (msg.type === 'rating_change') {
            this.ratingChange_ = msg.changes;
            this.renderRating_();
        } else if (msg.type === 'spectators' && this.g_) {
            this.g_.spectators = readSpectators(msg);
            this.renderMeta_();
        } else if (msg.type === 'presence' && this.g_) {
            if (applyPresence(this.g_, msg)) {
                this.render_();
            }
        }
    }

    onEventApplied_(kind, e) {
        if (kind === 'round_started') {
            this.viewPly_ = null;
        }
        if (kind === 'rematch_started' && !this.seat_()) {
            this.app_.toast('A rematch has started.');
        }
        if (kind === 'chat') {
            this.renderChat_();
            return;
        }
        if (kind === 'game_over' || kind === 'round_over') {
            this.actionBar_.reset();
        }
        this.render_();
    }

    // ---- Who is who ----------------------------------------------------------------------------

    seat_() {
        const g = this.g_;
        const mine = g?.players.find((p) => p.id && p.id === this.app_.me.id);
        return mine?.seat ?? (this.app_.me.id ? null : this.you_);
    }

    nameOf_(seat) {
        return this.g_?.players.find((p) => p.seat === seat)?.name ?? sideLabel(seat ?? '?');
    }

    // Sniderman: which player (seat) has to act now, and whether it is me.
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

    mySide_() {
        const g = this.g_;
        const seat = this.seat_();
        if (g.variant !== 'sniderman') {
            return seat;
        }
        if (!g.match || !seat) {
            return null;
        }
        return g.match.odd === seat ? 'odd' : g.match.even === seat ? 'even' : null;
    }

    flipped_() {
        const side = this.mySide_();
        const base = side === 'black' || side === 'even'
            || (this.g_.variant === 'sniderman' && !side && this.seat_() === 'player1');
        return base !== this.flip_;
    }

    // ---- Layout ----------------------------------------------------------------------------------

    build_() {
        this.topBar_ = h('div', { class: 'player-bar top' });
        this.bottomBar_ = h('div', { class: 'player-bar bottom' });
        this.boardHost_ = h('div', { id: 'board' });
        this.board_ = new Board(this.boardHost_, { onMove: (m) => this.sendMove_(m), label: 'Board' });
        this.banner_ = h('div', { class: 'banner', role: 'status', 'aria-live': 'polite', hidden: true });
        this.status_ = h('div', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite' },
                         'Loading the game…');
        this.lastMoveNote_ = h('div', { class: 'last-move-note', 'aria-live': 'polite' });
        this.ratingHost_ = h('section', { class: 'card rating-change', 'aria-live': 'polite', hidden: true });
        this.matchHost_ = h('section', { class: 'card match', hidden: true, 'aria-label': 'Match' });
        this.match_ = new MatchPanel(this.matchHost_, {
            nameObject: (o) => this.send_(build.nameObject(this.gameId_, o)),
            chooseSide: (s) => this.send_(build.chooseSide(this.gameId_, s)),
        });
        this.moves_ = h('section', { class: 'card moves', 'aria-label': 'Moves' });
        this.actions_ = h('div', { class: 'actions', role: 'group', 'aria-label': 'Game actions' });
        const id = this.gameId_;
        this.actionBar_ = new ActionBar(this.actions_, {
            drawOffer: () => this.send_(build.drawOffer(id)), drawAccept: () => this.send_(build.drawAccept(id)),
            drawDecline: () => this.send_(build.drawDecline(id)), resign: () => this.send_(build.resign(id)),
            rematchOffer: () => this.send_(build.rematchOffer(id)),
            rematchAccept: () => this.send_(build.rematchAccept(id)),
        });
        this.chatLog_ = h('ol', { class: 'chat-log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Chat' });
        const chatInput = h('input', { name: 'text', maxlength: 300, placeholder: 'Say something…',
                                       'aria-label': 'Chat message', autocomplete: 'off' });
        const chatForm = h('form', { class: 'chat-form' }, chatInput,
                           h('button', { class: 'btn small', type: 'submit' }, 'Send'));
        this.chatForm_ = chatForm;
        chatForm.addEventListener('submit', (e) => {
            e.preventDefault();
            const text = chatInput.value.trim();
            if (text && this.send_(build.chat(this.gameId_, text))) {
                chatInput.value = '';
            }
        });
        this.meta_ = h('div', { class: 'meta-row' });
        const side = h('aside', { class: 'side-col' }, this.banner_, this.ratingHost_, h('div', { class: 'status-box' }, this.status_,
                       this.lastMoveNote_), this.matchHost_,
                       this.moves_, this.actions_,
                       h('section', { class: 'card chat', 'aria-label': 'Chat' }, this.chatLog_, chatForm),
                       this.meta_);
        this.root_.append(h('div', { class: 'game-layout' },
            h('section', { class: 'board-col', 'aria-label': 'Board and players' }, this.topBar_,
              this.boardHost_, this.bottomBar_), side));
    }

    send_(msg) {
        if (this.app_.conn.send(msg)) {
            return true;
        }
        this.app_.toast('Not connected — the page will catch up when the connection is back.');
        return false;
    }

    sendMove_(move) {
        if (!this.send_(build.move(this.gameId_, move))) {
            this.render_();
            return;
        }
        this.pending_ = move;
        this.renderBoard_();
    }

    // ---- Rendering ---------------------------------------------------------------------------------

    render_() {
        const g = this.g_;
        if (!g) {
            return;
        }
        this.pending_ = null;
        document.body.dataset.variant = g.variant;
        this.renderBoard_();
        renderPlayerBars(this.topBar_, this.bottomBar_, { g, flipped: this.flipped_(), meId: this.app_.me.id });
        this.renderStatus_();
        this.matchHost_.hidden = g.variant !== 'sniderman' || !g.match;
        if (g.match) {
            this.match_.render({ match: g.match, seat: this.seat_(), nameOf: (s) => this.nameOf_(s),
                                 over: !!g.result, roundWinners: g.roundWinners });
        }
        renderMoveList(this.moves_, g, this.viewPly_, (ply) => this.review_(ply));
        this.actionBar_.render({ g, seat: this.seat_(), nameOf: (s) => this.nameOf_(s) });
        this.renderChat_();
        this.renderMeta_();
        this.renderRating_();
    }

    renderRating_() {
        renderRatingChange(this.ratingHost_, this.g_ ? this.ratingChange_ : null,
                           { meId: this.app_.me.id, nameOf: (s) => this.nameOf_(s) });
    }

    renderBoard_() {
        const g = this.g_;
        const live = this.viewPly_ === null;
        const shown = live ? { board: g.board, move: g.moves.at(-1) ?? null }
                           : g.history[this.viewPly_] ?? { board: g.board, move: null };
        const myTurn = live && this.isMyTurn_() && !this.pending_;
        let checkSquare = null;
        if (live && g.inCheck && g.board) {
            const king = g.toMove === 'black' ? 'k' : 'K';
            const i = g.board.squares.indexOf(king);
            checkSquare = i >= 0 ? String.fromCharCode(97 + (i % g.board.files)) + (Math.floor(i / g.board.files) + 1) : null;
        }
        this.board_.set({ board: shown.board, flipped: this.flipped_(), legal: myTurn ? g.legal : [],
                          lastMove: shown.move, checkSquare, red: g.variant === 'sniderman',
                          dropSide: g.toMove === 'black' ? 1 : 0, variant: g.variant });
        this.boardHost_.dataset.ply = String(live ? g.moves.length : this.viewPly_);
        this.boardHost_.dataset.live = String(live);
        this.boardHost_.dataset.myTurn = String(myTurn);
        this.boardHost_.dataset.version = String(g.version);
        this.boardHost_.dataset.round = String(g.match?.round ?? '');
        document.title = `${myTurn ? 'Your turn — ' : ''}${variantLabel(g.variant)} — Chessence`;
    }

    renderStatus_() {
        const g = this.g_;
        this.banner_.hidden = !g.result;
        if (g.result) {
            const w = g.result.winner;
            const who = !w ? 'Draw' : w === 'white' || w === 'black' || w === 'odd' || w === 'even'
                ? `${sideLabel(w)} wins` : `${this.nameOf_(w)} wins`;
            this.banner_.replaceChildren(h('strong', {}, who), h('span', {}, reasonText(g.result.reason)));
            this.banner_.dataset.result = w ?? 'draw';
        }
        let text;
        if (g.result) {
            text = '';
        } else if (g.variant === 'sniderman' && g.match?.phase !== 'playing') {
            const m = g.match;
            const actor = m?.phase === 'naming' ? m.namer : m?.chooser;
            const what = m?.phase === 'naming' ? 'name the object' : 'choose ODD or EVEN';
            text = actor === this.seat_() ? `Your turn: ${what}.` : `${this.nameOf_(actor)} is about to ${what}.`;
        } else if (this.isMyTurn_()) {
            text = g.inCheck ? 'Check! Your move.' : 'Your move.';
        } else {
            const mover = g.variant === 'sniderman' ? this.nameOf_(g.match?.[g.toMove]) : this.nameOf_(g.toMove);
            text = `${sideLabel(g.toMove ?? '')} to move (${mover})${g.inCheck ? ' — check' : ''}.`;
        }
        const n = g.moves.length;
        if (n > 0 && !g.result && (g.variant !== 'sniderman' || g.match?.phase === 'playing')) {
            const by = g.variant === 'sniderman' ? (n % 2 ? 'ODD' : 'EVEN') : (n % 2 ? 'White' : 'Black');
            this.lastMoveNote_.textContent = `${by} played ${g.moves[n - 1]}.`;
        } else {
            this.lastMoveNote_.textContent = '';
        }
        if (this.viewPly_ !== null) {
            text += ` Reviewing move ${this.viewPly_}.`;
        }
        this.status_.textContent = text;
        this.status_.parentNode.hidden = !text;
        this.status_.dataset.myTurn = String(this.isMyTurn_());
    }

    renderChat_() {
        const g = this.g_;
        const atBottom = this.chatLog_.scrollTop + this.chatLog_.clientHeight >= this.chatLog_.scrollHeight - 4;
        this.chatLog_.replaceChildren(...g.chat.map((c) => h('li', c.spectator ? { class: 'chat-spectator' } : {},
            h('b', {}, c.from), c.spectator ? h('span', { class: 'chat-role' }, ' (spectator)') : '', ' ', c.text)));
        if (g.chat.length === 0) {
            this.chatLog_.append(h('li', { class: 'chat-empty' }, 'No messages yet.'));
        }
        if (atBottom) {
            this.chatLog_.scrollTop = this.chatLog_.scrollHeight;
        }
    }

    renderMeta_() {
        const g = this.g_;
        const link = this.app_.gameLink(this.gameId_);
        const copy = h('button', { type: 'button', class: 'btn small', 'data-action': 'copy-game' }, 'Copy link');
        copy.addEventListener('click', () => copyText(link).then((ok) => this.app_.toast(ok ? 'Game link copied.' : link)));
        const flip = h('button', { type: 'button', class: 'btn small', 'data-action': 'flip',
                                   'aria-pressed': String(this.flip_), title: 'Flip the board' }, 'Flip');
        flip.addEventListener('click', () => {
            this.flip_ = !this.flip_;
            this.render_();
        });
        this.meta_.replaceChildren(
            h('span', { class: 'spectators', 'data-count': g.spectators }, `${g.spectators} watching`),
            h('span', { class: 'variant-tag' }, `${variantLabel(g.variant)} · ${g.rules}${g.rated ? ' · rated' : ''}`), flip, copy,
            g.result ? h('a', { class: 'btn small', href: `/api/games/${encodeURIComponent(this.gameId_)}.pgn`,
                                download: `${this.gameId_}.pgn`, 'data-action': 'pgn' }, 'PGN') : '');
    }

    // ---- Review --------------------------------------------------------------------------------------

    review_(ply) {
        const g = this.g_;
        if (ply === null || ply >= g.moves.length) {
            this.viewPly_ = null;
        } else {
            this.viewPly_ = Math.max(0, ply);
        }
        this.render_();
    }

    onKey_(e) {
        if (!this.g_ || e.defaultPrevented || e.target.closest?.('input, textarea, select, .board')) {
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
