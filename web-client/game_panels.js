// Parts of the game page that only draw what they are given: the two player bars and the action
// buttons (resign with confirmation, draw offers, rematch).
import { h, sideLabel } from './ui.js';
import { ratingText } from './rating_view.js';

// Whether `seat` has to act now (move, name the object, or choose a side).
export function actsNow(g, seat) {
    if (g.result) {
        return false;
    }
    if (g.variant !== 'sniderman') {
        return g.toMove === seat;
    }
    const m = g.match;
    if (m?.phase === 'playing') {
        return m[g.toMove] === seat;
    }
    return m?.phase === 'naming' ? m.namer === seat : m?.chooser === seat;
}

// The chip beside a name: the colour, or in Sniderman this round's ODD/EVEN (or the seat's number
// before it is chosen).
function chip(g, seat) {
    if (g.variant !== 'sniderman') {
        return h('span', { class: `side-chip ${seat}` }, sideLabel(seat));
    }
    const m = g.match;
    const side = m?.odd === seat ? 'odd' : m?.even === seat ? 'even' : null;
    if (side) {
        return h('span', { class: `side-chip ${side}`, title: side === 'odd' ? 'moves 1, 3, 5…' : 'moves 2, 4, 6…' },
                 sideLabel(side));
    }
    return h('span', { class: 'side-chip seat' }, seat === 'player0' ? 'Player 1' : 'Player 2');
}

// A bar: {el, info, reserve}; the reserve slot is kept across renders (the board draws into it).
export function makePlayerBar(where) {
    const info = h('div', { class: 'bar-info' });
    const reserve = h('div', { class: 'reserve-slot' });
    return { el: h('div', { class: `player-bar ${where}` }, info, reserve), info, reserve };
}

// The seats at the bottom and the top: the player's own seat at the bottom (White's, or
// player0's, for a spectator), the other way round when flipped. Fixed for the whole game: a
// Sniderman player keeps their side of the board whatever ODD/EVEN they take.
export function barSeats(g, flipped) {
    const seats = g.variant === 'sniderman' ? ['player0', 'player1'] : ['white', 'black'];
    return flipped ? [seats[1], seats[0]] : seats;
}

// A small screen and keyboard: the computer's mark beside its name.
function botMark() {
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 16 16');
    svg.setAttribute('aria-hidden', 'true');
    svg.innerHTML = '<rect x="2" y="2.5" width="12" height="8" rx="1.2" fill="none" stroke="currentColor" stroke-width="1.5"/>'
        + '<path d="M5 13.5h6M8 10.5v3" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/>';
    return h('span', { class: 'bot-mark', role: 'img', 'aria-label': 'computer', title: 'The computer' }, svg);
}

// Fills the bars above and below the board; ratingOf(playerId): the rating to show beside a name
// ({rating, rd}) or null.
export function renderPlayerBars(top, bottom, { g, flipped, meId, ratingOf = () => null }) {
    const [bottomSeat, topSeat] = barSeats(g, flipped);
    for (const [bar, seat] of [[bottom, bottomSeat], [top, topSeat]]) {
        const p = g.players.find((x) => x.seat === seat);
        const toAct = actsNow(g, seat);
        const online = !!p?.online;
        const bot = !!p?.bot;
        const rating = p?.id && !bot ? ratingOf(p.id) : null;
        bar.el.dataset.seat = seat ?? '';
        bar.el.dataset.online = String(online);
        bar.el.classList.toggle('to-move', toAct);
        bar.el.classList.toggle('bot', bot);
        // The computer is always there: a computer mark in place of the online dot.
        bar.info.replaceChildren(
            bot ? botMark()
                : h('span', { class: `online ${online ? 'on' : 'off'}`, role: 'img',
                              'aria-label': online ? 'connected' : 'not connected' }),
            chip(g, seat),
            h('span', { class: 'name' }, bot ? `Computer level ${p.level}` : p?.name ?? 'Waiting…'),
            rating ? h('span', { class: 'rating', 'data-rating': Math.round(rating.rating), title: 'Rating' },
                       ratingText(rating)) : '',
            p && p.id === meId ? h('span', { class: 'you' }, 'you') : '',
            // A tournament player who went berserk: half the time, no increment.
            g.berserk?.[seat === 'black' || seat === 'player1' ? 1 : 0]
                ? h('span', { class: 'berserk-mark', 'data-berserk': seat, role: 'img', 'aria-label': 'berserk',
                              title: 'Berserk: half the time, no increment' }, '⚔') : '',
            p && !bot && !online && !g.result ? h('span', { class: 'away' }, 'disconnected') : '',
            toAct ? h('span', { class: 'turn-mark' }, g.variant === 'sniderman' && g.match?.phase !== 'playing'
                ? 'to choose' : 'to move') : '');
    }
}

export class ActionBar {
    // act: {drawOffer, drawAccept, drawDecline, resign} callbacks
    constructor(host, act) {
        this.host_ = host;
        this.act_ = act;
        this.confirmResign_ = false;
        this.view_ = null;
    }

    reset() {
        this.confirmResign_ = false;
    }

    // view: {g, seat (mine or null), nameOf(seat)}. Spectators see a standing draw offer too.
    render(view) {
        this.view_ = view;
        const { g, seat, nameOf } = view;
        const items = [];
        const button = (label, action, onClick, cls = 'btn', disabled = false) => {
            const b = h('button', { type: 'button', class: cls, 'data-action': action, disabled }, label);
            b.addEventListener('click', onClick);
            items.push(b);
        };
        if (!g.result && g.drawOffer && (!seat || g.drawOffer === seat)) {
            items.push(h('p', { class: 'offer', 'data-offer': 'draw' },
                seat ? 'You offered a draw; waiting for the answer.' : `${nameOf(g.drawOffer)} offers a draw.`));
        }
        if (seat && !g.result) {
            if (g.variant !== 'sniderman') {
                if (g.drawOffer && g.drawOffer !== seat) {
                    items.push(h('p', { class: 'offer', 'data-offer': 'draw' }, `${nameOf(g.drawOffer)} offers a draw.`));
                    button('Accept draw', 'draw-accept', this.act_.drawAccept, 'btn primary');
                    button('Decline', 'draw-decline', this.act_.drawDecline);
                } else {
                    const mine = g.drawOffer === seat;
                    button(mine ? 'Draw offered' : 'Offer draw', 'draw-offer', this.act_.drawOffer, 'btn', mine);
                }
            }
            button(this.confirmResign_ ? 'Confirm resign' : 'Resign', 'resign', () => this.onResign_(),
                   this.confirmResign_ ? 'btn danger' : 'btn');
        }
        this.host_.replaceChildren(...items);
        this.host_.hidden = items.length === 0;
    }

    // Resigning takes two clicks: the first turns the button into "Confirm resign".
    onResign_() {
        if (this.confirmResign_) {
            this.confirmResign_ = false;
            this.act_.resign();
            return;
        }
        this.confirmResign_ = true;
        this.render(this.view_);
        this.host_.querySelector('[data-action="resign"]')?.focus();
    }
}
