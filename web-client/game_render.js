// Drawing the game page from the room record, mixed into GamePage: board, bars, status, match,
// moves, actions, after-game panel, tools and chat.
import { build } from './protocol.js';
import { h, keyRule, plural, squareOf, variantTitle } from './ui.js';
import { renderMoveList, renderMoveStrip } from './move_list.js';
import { renderPlayerBars } from './game_panels.js';
import { lastMoveText, pageTitle, reviewText, statusText } from './game_status.js';
import { afterGameActions, resultLine, resultWords } from './result_dialog.js';
import { premoveText } from './premove.js';
import { setTitle } from './notify.js';
import { prefs } from './settings.js';
import { fetchLegal, pgnUrl, withKey } from './api.js';
import { copyText } from './ui.js';
import { againOptions } from './computer_form.js';

export const renderGame = {
    render_() {
        const g = this.g_;
        if (!g || this.left_) {
            return;
        }
        document.body.dataset.variant = g.variant;
        this.layout_.dataset.variant = g.variant;
        this.renderBoard_();
        renderPlayerBars(this.topBar_, this.bottomBar_, { g, flipped: this.flipped_(), meId: this.app_.me.id,
                                                          ratingOf: (id) => this.ratingOf_(id) });
        this.clocks_.render({ g, seat: this.seat_(), nameOf: (s) => this.nameOf_(s),
                              bars: [this.topBar_.el, this.bottomBar_.el] });
        this.keyRule_.replaceChildren(h('span', { class: 'key-rule-text' }, keyRule(g.variant)), ' ',
            h('a', { href: `/learn/${g.variant}`, target: '_blank', rel: 'noopener', 'data-action': 'rules' },
              `Rules of ${variantTitle(g.variant)}`));
        this.renderStatus_();
        this.tournamentStrip_.render({ g, seat: this.seat_() });
        this.matchHost_.hidden = g.variant !== 'sniderman' || !g.match;
        if (g.match) {
            this.match_.render({ match: g.match, seat: this.seat_(), nameOf: (s) => this.nameOf_(s),
                                 over: !!g.result, roundWinners: g.roundWinners });
        }
        const result = resultLine(g, (s) => this.nameOf_(s));
        // Sniderman: while a round's end shows, its final position is on the board, so the lists
        // show that round's moves (not the next deal's none); a click on one goes on to the next.
        const ended = this.viewPly_ === null ? this.roundEnd_.shown : null;
        const listed = ended ? { ...g, moves: ended.moves, history: [] } : g;
        const onReview = ended ? () => this.roundEnd_.finish() : (ply) => this.review_(ply);
        renderMoveList(this.moves_, listed, ended ? null : this.viewPly_, onReview, result);
        renderMoveStrip(this.strip_, listed, ended ? null : this.viewPly_, onReview, result);
        // Before a Sniderman round's first capture there is nothing to list: room for the match panel.
        this.moves_.hidden = g.variant === 'sniderman' && !listed.moves.length && g.match?.phase !== 'playing' && !g.result;
        this.actionBar_.render({ g, seat: this.seat_(), nameOf: (s) => this.nameOf_(s) });
        this.offerPrompt_.render({ g, seat: this.seat_(), nameOf: (s) => this.nameOf_(s) });
        this.renderAfterGame_();
        this.renderChat_();
        this.renderMeta_();
    },

    // The squares with the viewer's pieces, from which a premove may start (Sniderman: every piece).
    premovable_() {
        const g = this.g_;
        const seat = this.seat_();
        if (!seat || g.result || this.viewPly_ !== null || this.isMyTurn_() || !g.board) {
            return null;
        }
        if (g.variant === 'sniderman') {
            if (g.match?.phase !== 'playing') {
                return null;
            }
            return g.board.squares.map((c, i) => (c ? squareOf(i, g.board.files) : null)).filter(Boolean);
        }
        const white = seat === 'white';
        return g.board.squares.map((c, i) => (c && c !== '*' && (c.replace('+', '') === c.replace('+', '').toUpperCase()) === white
            ? squareOf(i, g.board.files) : null)).filter(Boolean);
    },

    renderBoard_() {
        const g = this.g_;
        const live = this.viewPly_ === null;
        // Sniderman: a round that just ended keeps its final position for a while (round_end.js).
        const ended = live ? this.roundEnd_.shown : null;
        const shown = ended ?? (live ? { board: g.board, move: g.moves.at(-1) ?? null }
                                     : g.history[this.viewPly_] ?? { board: g.board, move: null });
        const myTurn = live && !ended && this.isMyTurn_() && !this.pending_;
        let checkSquare = null;
        if (live && g.inCheck && g.board) {
            const i = g.board.squares.indexOf(g.toMove === 'black' ? 'k' : 'K');
            checkSquare = i >= 0 ? squareOf(i, g.board.files) : null;
        }
        const mySide = this.seat_() === 'black' ? 1 : 0;
        const premovable = this.pending_ || ended ? null : this.premovable_();
        this.board_.set({
            board: shown.board, flipped: this.flipped_(), legal: myTurn ? g.legal : [], lastMove: shown.move,
            checkSquare, red: g.variant === 'sniderman', variant: g.variant,
            dropSide: premovable ? mySide : g.toMove === 'black' ? 1 : 0,
            powers: live && !ended ? g.powers : this.pastPowers_(shown), showPowers: prefs.on('powers'),
            premovable, premove: live ? this.premove_ : null, premoveDrops: g.variant === 'chessence',
            premoveAnyTarget: g.variant === 'sniderman',
        });
        const host = this.boardHost_;
        host.dataset.ply = String(live ? g.moves.length : this.viewPly_);
        host.dataset.live = String(live);
        host.dataset.myTurn = String(myTurn);
        host.dataset.version = String(g.version);
        host.dataset.round = String(g.match?.round ?? '');
        host.dataset.roundEnd = ended ? String(ended.round) : '';
        host.dataset.flipped = String(this.flipped_());
        setTitle(pageTitle(g, myTurn));
    },

    // Chessence: the powers of a past position (review keeps the R/B/N badges). A position seen live
    // keeps its powers; one known only by its position string asks GET /api/legal once.
    pastPowers_(shown) {
        const g = this.g_;
        if (g.variant !== 'chessence' || !shown) {
            return null;
        }
        if (shown.powers) {
            return shown.powers;
        }
        this.powersByFen_ ??= new Map();
        if (!shown.fen || this.powersByFen_.has(shown.fen)) {
            return this.powersByFen_.get(shown.fen) ?? null;
        }
        this.powersByFen_.set(shown.fen, null);
        fetchLegal({ variant: g.variant, fen: shown.fen }).then((r) => {
            if (r.ok) {
                this.powersByFen_.set(shown.fen, r.value.powers);
                if (!this.left_) {
                    this.renderBoard_();
                }
            } else {
                this.powersByFen_.delete(shown.fen); // asked again when the position is shown again
            }
        });
        return null;
    },

    renderStatus_() {
        const g = this.g_;
        const seat = this.seat_();
        const nameOf = (s) => this.nameOf_(s);
        this.banner_.hidden = !g.result;
        if (g.result) {
            const words = resultWords(g, nameOf, seat);
            this.banner_.replaceChildren(h('strong', {}, words.headline), ...words.lines.map((l) => h('span', {}, l)));
            this.banner_.dataset.result = g.result.winner ?? 'draw';
        }
        const online = this.app_.conn.state === 'online';
        this.status_.textContent = statusText({ g, seat, myTurn: this.isMyTurn_(), nameOf, online });
        this.status_.hidden = !this.status_.textContent;
        this.status_.dataset.myTurn = String(this.isMyTurn_());
        this.lastMoveNote_.textContent = this.viewPly_ === null ? lastMoveText(g, nameOf) : reviewText(g, this.viewPly_);
        const premove = this.premove_ && !this.premove_.offline
            ? `Premove ${premoveText(this.premove_)}: played as soon as it is your turn, if it is legal then. `
              + 'Click the board or right-click to cancel.' : '';
        this.noteEl_.textContent = premove || this.note_;
        this.noteEl_.hidden = !this.noteEl_.textContent;
    },

    // After the game: the actions in the side panel, and once the card over the board.
    renderAfterGame_() {
        const g = this.g_;
        this.afterGame_.hidden = !g.result;
        if (!g.result) {
            return;
        }
        const seat = this.seat_();
        const nameOf = (s) => this.nameOf_(s);
        const act = {
            rematchOffer: () => this.send_(build.rematchOffer(this.gameId_)),
            rematchAccept: () => this.send_(build.rematchAccept(this.gameId_)),
            newOpponent: () => this.newOpponent_(),
            vsComputer: !!againOptions(g),
            analysisHref: withKey(`/analysis/${encodeURIComponent(this.gameId_)}`, this.gameId_),
            pgnHref: pgnUrl(this.gameId_), pgnName: `${g.variant}-${this.gameId_}.pgn`,
        };
        this.afterGame_.replaceChildren(...afterGameActions(g, seat, nameOf, act),
                                        h('a', { class: 'btn', href: '/' }, 'Back to the lobby'));
        const words = resultWords(g, nameOf, seat);
        if (this.showResultCard_ && seat) {
            this.showResultCard_ = false;
            this.resultCard_.show(words, afterGameActions(g, seat, nameOf, act, true));
        } else {
            this.resultCard_.update(words, afterGameActions(g, seat, nameOf, act, true));
        }
    },

    // A new game with the same settings (game, rules, rounds, time control, rated) against whoever
    // comes: quick pairing from the lobby. Against the computer: the computer again, same settings.
    newOpponent_() {
        const g = this.g_;
        const again = againOptions(g);
        if (again) {
            this.app_.startComputer(again); // game_started takes the page to the new game
            return;
        }
        const rounds = g.match?.rounds;
        if (this.send_(build.quickPair({ variant: g.variant, rules: g.rules, rounds, clock: g.timeControl,
                                         rated: g.rated }))) {
            this.app_.navigate('/');
        }
    },

    renderChat_() {
        const g = this.g_;
        const box = this.chatBox_;
        box.renderLines(g.chat);
        // Two channels: the players talk among themselves, the spectators among themselves. A player
        // against the computer has nobody to talk to: no chat box.
        const player = !!this.seat_();
        this.chat_.hidden = player && g.players.some((p) => p.bot);
        box.title.textContent = player ? 'Chat with your opponent' : 'Spectators\' chat';
        const button = this.spectatorChatButton_;
        button.hidden = !player || !!g.result;
        button.textContent = g.spectatorChat ? 'Close spectators\' chat' : 'Open spectators\' chat';
        button.title = g.spectatorChat ? 'Spectators may chat among themselves now' : 'Spectators may not chat now';
        const closed = !player && (!g.spectatorChat || !!g.result);
        box.setOpen(!closed, !closed ? 'Say something…'
            : g.result ? 'The game is over: the spectators\' chat is closed'
                : 'The players have closed the spectators\' chat');
    },

    // Tools beside the board: flip, the Chessence powers switch, the links; and who watches.
    renderMeta_() {
        const g = this.g_;
        const link = this.app_.gameLink(this.gameId_);
        const button = (label, action, onClick, extra = {}) => {
            const b = h('button', { type: 'button', class: 'btn', 'data-action': action, ...extra }, label);
            b.addEventListener('click', onClick);
            return b;
        };
        const items = [
            button('Flip board', 'flip', () => {
                this.flip_ = !this.flip_;
                this.render_();
            }, { 'aria-pressed': String(this.flip_) }),
        ];
        if (g.variant === 'chessence') {
            const on = prefs.on('powers');
            items.push(button(on ? 'Hide powers' : 'Show powers', 'powers',
                              () => prefs.set('powers', on ? 'off' : 'on'), { 'aria-pressed': String(on) }));
        }
        // A private game's link carries its key: whoever has it may watch.
        items.push(button('Copy link', 'copy-game', () => copyText(link).then((ok) =>
            this.app_.toast(ok ? 'Game link copied.' : link)), { 'data-link': link }));
        if (!g.result && g.moves.length) {
            items.push(h('a', { class: 'btn', href: pgnUrl(this.gameId_), download: `${g.variant}-${this.gameId_}.pgn`,
                                'data-action': 'pgn-now' }, 'PGN'));
        }
        items.push(h('span', { class: 'spectators', 'data-count': g.spectators }, `${plural(g.spectators, 'spectator')}`),
                   // Sniderman has no draw rules: no rule set to name.
                   h('span', { class: 'variant-tag' }, g.variant === 'sniderman' ? variantTitle(g.variant)
                       : `${variantTitle(g.variant)} · ${g.rules === 'strict' ? 'strict rules' : 'house rules'}`),
                   h('span', { class: `variant-tag rated-tag${g.rated ? ' rated' : ''}`, 'data-rated': String(g.rated),
                               title: g.rated ? 'The result changes both players\' ratings' : 'No rating changes' },
                     g.rated ? 'Rated' : 'Casual'));
        this.tools_.replaceChildren(...items);
    },
};
