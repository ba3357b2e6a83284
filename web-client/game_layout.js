// The game page's elements, built once: player bars (with the Chessence reserves), the board, the
// key rule with its Rules link, status, Sniderman's match panel, moves, actions, tools and chat.
// Every part is a direct child of .game-layout so the stylesheet can place it per screen size.
import { Board } from './board.js';
import { build } from './protocol.js';
import { MatchPanel } from './match_panel.js';
import { h } from './ui.js';
import { ActionBar, makePlayerBar } from './game_panels.js';
import { ResultCard } from './result_dialog.js';
import { describeForBoard } from './explain.js';
import { ClockPanel } from './clock.js';
import { RoundEnd } from './round_end.js';
import { TournamentStrip } from './tournament_game.js';
import { ChatBox } from './chat_box.js';
import { OfferPrompt } from './offer_prompt.js';

export function buildGameLayout(page) {
    const id = page.gameId_;
    page.topBar_ = makePlayerBar('top');
    page.bottomBar_ = makePlayerBar('bottom');
    page.boardHost_ = h('div', { id: 'board' });
    page.board_ = new Board(page.boardHost_, {
        label: 'Board',
        onMove: (m) => page.sendMove_(m),
        onPremove: (pm) => page.setPremove_(pm),
        onCancelPremove: () => page.setPremove_(null),
        describe: (square, code) => describeForBoard(page.g_?.variant, code),
        reserveHosts: { top: page.topBar_.reserve, bottom: page.bottomBar_.reserve },
    });
    page.keyRule_ = h('p', { class: 'key-rule', 'data-area': 'rule' });
    page.banner_ = h('div', { class: 'banner', role: 'status', hidden: true });
    page.status_ = h('div', { class: 'status', id: 'status', role: 'status', 'aria-live': 'polite' },
                     'Loading the game…');
    page.lastMoveNote_ = h('div', { class: 'last-move-note' });
    page.noteEl_ = h('div', { class: 'game-note', 'aria-live': 'polite' });
    page.afterGame_ = h('div', { class: 'after-game', role: 'group', 'aria-label': 'After the game', hidden: true });
    // A rated game's rating change (issue 16: rating_view.js), once it is over.
    page.ratingHost_ = h('div', { class: 'rating-change', 'aria-live': 'polite', hidden: true });
    // An arena's game: the way back to it, Berserk, Pause (tournament_game.js), in the status box.
    page.tournamentStrip_ = new TournamentStrip({ send: (msg) => page.send_(msg),
                                                  navigate: (path) => page.app_.navigate(path) });
    page.statusBox_ = h('section', { class: 'status-box', 'aria-label': 'Status' }, page.banner_, page.ratingHost_, page.status_,
                        page.lastMoveNote_, page.noteEl_, page.tournamentStrip_.el, page.afterGame_);
    page.roundEnd_ = new RoundEnd(page.statusBox_, () => page.render_());
    page.matchHost_ = h('section', { class: 'card match', hidden: true, 'aria-label': 'Match' });
    page.match_ = new MatchPanel(page.matchHost_, {
        nameObject: (o) => page.send_(build.nameObject(id, o)),
        chooseSide: (s) => page.send_(build.chooseSide(id, s)),
    });
    page.moves_ = h('section', { class: 'card moves', 'aria-label': 'Moves' });
    // On a phone: the moves in one line above the board (hidden on wider screens).
    page.strip_ = h('nav', { class: 'move-strip', 'aria-label': 'Moves (compact)' });
    page.actions_ = h('div', { class: 'actions', role: 'group', 'aria-label': 'Game actions' });
    page.actionBar_ = new ActionBar(page.actions_, {
        drawOffer: () => page.send_(build.drawOffer(id)), drawAccept: () => page.send_(build.drawAccept(id)),
        drawDecline: () => page.send_(build.drawDecline(id)), resign: () => page.send_(build.resign(id)),
    });
    // Time: abort, takeback, more time, claims and their countdowns (clock.js), above the actions.
    page.timeActions_ = h('div', { class: 'time-actions', role: 'group', 'aria-label': 'Time', hidden: true });
    page.clocks_ = new ClockPanel(page.timeActions_, {
        abort: () => page.send_(build.abort(id)), moretime: () => page.send_(build.moretime(id)),
        claimVictory: () => page.send_(build.claimVictory(id)), claimDraw: () => page.send_(build.claimDraw(id)),
        takebackOffer: () => page.send_(build.takebackOffer(id)),
        takebackAccept: () => page.send_(build.takebackAccept(id)),
        takebackDecline: () => page.send_(build.takebackDecline(id)),
    });
    page.tools_ = h('div', { class: 'tools', role: 'group', 'aria-label': 'Board tools' });
    // A player may close (and reopen) the spectators' chat of the game.
    page.spectatorChatButton_ = h('button', { class: 'btn chat-switch', type: 'button', hidden: true });
    page.spectatorChatButton_.addEventListener('click', () => {
        page.send_(build.spectatorChat(id, !page.g_.spectatorChat));
    });
    page.chatBox_ = new ChatBox({ onSend: (text) => page.send_(build.chat(id, text)),
                                  headExtra: [page.spectatorChatButton_] });
    page.chat_ = page.chatBox_.el;
    page.layout_ = h('div', { class: 'game-layout' }, page.strip_, page.topBar_.el, page.boardHost_, page.bottomBar_.el,
                     page.keyRule_, page.statusBox_, page.matchHost_, page.moves_, page.timeActions_, page.actions_, page.tools_,
                     page.chat_);
    page.root_.append(page.layout_);
    page.resultCard_ = new ResultCard(page.boardHost_);
    // The opponent's offer in a banner when the answers above are out of view (a phone).
    page.offerPrompt_ = new OfferPrompt(page.layout_, { draw: page.actions_, takeback: page.timeActions_ }, {
        drawAccept: () => page.send_(build.drawAccept(id)), drawDecline: () => page.send_(build.drawDecline(id)),
        takebackAccept: () => page.send_(build.takebackAccept(id)),
        takebackDecline: () => page.send_(build.takebackDecline(id)),
    });
}
