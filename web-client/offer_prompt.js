// The opponent's draw offer or takeback request wherever the player is looking: the game page's
// own Accept / Decline sit beside the clock, which on a phone may be scrolled away (or below the
// fold), so while an offer stands and those controls are not wholly in view, a banner fixed to
// the bottom of the window asks the same question with the same two answers.
import { h } from './ui.js';

const HEADER_PX = 56; // the sticky header covers the top of the window

export class OfferPrompt {
    // host: where the banner lives (position: fixed, so anywhere in the page); hosts: {draw,
    // takeback}: the elements holding the page's own answers; act: {drawAccept, drawDecline,
    // takebackAccept, takebackDecline}.
    constructor(host, hosts, act) {
        this.act_ = act;
        this.hosts_ = hosts;
        this.inView_ = new Map(); // host element → wholly in view
        this.el_ = h('div', { class: 'offer-prompt', role: 'region', 'aria-label': 'Your opponent asks', hidden: true });
        host.append(this.el_);
        this.offer_ = null;
        this.observer_ = typeof IntersectionObserver === 'function'
            ? new IntersectionObserver((entries) => {
                for (const e of entries) {
                    this.inView_.set(e.target, e.isIntersecting && e.intersectionRatio > 0.98);
                }
                this.show_();
            }, { threshold: [0, 0.5, 0.99, 1], rootMargin: `-${HEADER_PX}px 0px 0px 0px` })
            : null;
        for (const el of Object.values(hosts)) {
            this.observer_?.observe(el);
        }
    }

    stop() {
        this.observer_?.disconnect();
        this.el_.remove();
    }

    // view: {g, seat (mine or null), nameOf(seat)}: the offer to answer, if the opponent made one.
    render({ g, seat, nameOf }) {
        let offer = null;
        if (seat && !g.result && g.variant !== 'sniderman') {
            if (g.drawOffer && g.drawOffer !== seat) {
                offer = { kind: 'draw', by: g.drawOffer, text: `${nameOf(g.drawOffer)} offers a draw.` };
            } else if (g.takebackOffer && g.takebackOffer !== seat) {
                offer = { kind: 'takeback', by: g.takebackOffer,
                          text: `${nameOf(g.takebackOffer)} asks to take back a move.` };
            }
        }
        const key = offer ? `${offer.kind}:${offer.by}` : '';
        if (key !== (this.offer_ ? `${this.offer_.kind}:${this.offer_.by}` : '')) {
            this.offer_ = offer;
            this.draw_();
        }
        if (offer) {
            // The observer speaks on the next frame: measure now, so that a wide screen with the
            // answers beside the clock never sees the banner flash.
            const own = this.hosts_[offer.kind];
            const box = own.getBoundingClientRect();
            this.inView_.set(own, box.height > 0 && box.top >= HEADER_PX && box.bottom <= window.innerHeight);
        }
        this.show_();
    }

    draw_() {
        const o = this.offer_;
        if (!o) {
            this.el_.replaceChildren();
            delete this.el_.dataset.offer;
            return;
        }
        const draw = o.kind === 'draw';
        const accept = h('button', { type: 'button', class: 'btn primary', 'data-prompt-action': 'accept' },
                         draw ? 'Accept draw' : 'Accept takeback');
        const decline = h('button', { type: 'button', class: 'btn', 'data-prompt-action': 'decline' }, 'Decline');
        accept.addEventListener('click', () => (draw ? this.act_.drawAccept() : this.act_.takebackAccept()));
        decline.addEventListener('click', () => (draw ? this.act_.drawDecline() : this.act_.takebackDecline()));
        this.el_.dataset.offer = o.kind;
        this.el_.replaceChildren(h('p', { 'aria-live': 'assertive' }, o.text), h('div', { class: 'row nowrap' }, accept, decline));
    }

    // Shown while an offer stands and the page's own answers to it are not wholly in view.
    show_() {
        const o = this.offer_;
        const own = o ? this.hosts_[o.kind] : null;
        this.el_.hidden = !o || (!!this.observer_ && this.inView_.get(own) === true);
    }
}
