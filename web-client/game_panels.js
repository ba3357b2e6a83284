// Parts of the game page that only draw what they are given: the two player bars and the action
// buttons (resign with confirmation, draw offers, rematch).
import { h, sideLabel } from './ui.js';

function snidermanLabel(m, seat) {
    if (m?.odd === seat) {
        return 'ODD';
    }
    if (m?.even === seat) {
        return 'EVEN';
    }
    return seat === 'player0' ? 'Player 1' : 'Player 2';
}

// Whether `seat` has to act now (move, name the object, or choose a side).
function actsNow(g, seat) {
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

// Fills the bars above and below the board: the side at the bottom is the one the board faces.
export function renderPlayerBars(topBar, bottomBar, { g, flipped, meId }) {
    const ordered = g.variant === 'sniderman'
        ? (g.match?.odd ? [g.match.odd, g.match.even] : ['player0', 'player1'])
        : ['white', 'black'];
    const [bottom, top] = flipped ? [ordered[1], ordered[0]] : ordered;
    for (const [bar, seat] of [[bottomBar, bottom], [topBar, top]]) {
        const p = g.players.find((x) => x.seat === seat);
        const label = g.variant === 'sniderman' ? snidermanLabel(g.match, seat) : sideLabel(seat);
        const toAct = actsNow(g, seat);
        bar.dataset.seat = seat ?? '';
        bar.classList.toggle('to-move', toAct);
        bar.replaceChildren(
            h('span', { class: `online ${p?.online ? 'on' : 'off'}`, title: p?.online ? 'online' : 'offline',
                        role: 'img', 'aria-label': p?.online ? 'online' : 'offline' }),
            h('span', { class: `side-chip ${seat}` }, label),
            h('span', { class: 'name' }, p?.name ?? 'Waiting…'),
            p && p.id === meId ? h('span', { class: 'you' }, 'you') : '',
            toAct ? h('span', { class: 'clock-dot', 'aria-hidden': 'true' }) : '');
    }
}

export class ActionBar {
    // act: {drawOffer, drawAccept, drawDecline, resign, rematchOffer, rematchAccept} callbacks
    constructor(host, act) {
        this.host_ = host;
        this.act_ = act;
        this.confirmResign_ = false;
        this.view_ = null;
    }

    reset() {
        this.confirmResign_ = false;
    }

    // view: {g, seat (mine or null), nameOf(seat)}
    render(view) {
        this.view_ = view;
        const { g, seat, nameOf } = view;
        const items = [];
        const button = (label, action, onClick, cls = 'btn', disabled = false) => {
            const b = h('button', { type: 'button', class: cls, 'data-action': action, disabled }, label);
            b.addEventListener('click', onClick);
            items.push(b);
        };
        if (seat && !g.result) {
            if (g.variant !== 'sniderman') {
                if (g.drawOffer && g.drawOffer !== seat) {
                    items.push(h('p', { class: 'offer' }, `${sideLabel(g.drawOffer)} offers a draw.`));
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
        if (g.result) {
            if (g.rematchGameId) {
                items.push(h('a', { class: 'btn primary', href: `#/game/${encodeURIComponent(g.rematchGameId)}`,
                                    'data-action': 'rematch-go' }, 'Go to the rematch'));
            } else if (seat && g.rematchOffer && g.rematchOffer !== seat) {
                items.push(h('p', { class: 'offer' }, `${nameOf(g.rematchOffer)} wants a rematch.`));
                button('Accept rematch', 'rematch-accept', this.act_.rematchAccept, 'btn primary');
            } else if (seat) {
                const mine = g.rematchOffer === seat;
                button(mine ? 'Rematch offered' : 'Rematch', 'rematch-offer', this.act_.rematchOffer, 'btn', mine);
            }
            items.push(h('a', { class: 'btn', href: '#/' }, 'Back to the lobby'));
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
