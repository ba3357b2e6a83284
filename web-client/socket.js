// The connection to the server: connects, says hello with the stored token, dispatches frames to
// handlers by type, reconnects with backoff, and on reconnect resumes every watched room from the
// last version it saw (watch + since), so a page never needs a reload. The token is forgotten only
// on a definite bad_token; a hello the server fails (internal_error), refuses for now (rate_limited)
// or leaves unanswered for WELCOME_WITHIN_MS is said again on a new connection. When the
// server says `server_restart` the page shows it and, once the socket closes, comes back after a
// random part of the delay the server named (so that every page does not return at once).
import { build, eventVersion, gameIdOf, welcomeToken } from './protocol.js';

export const TOKEN_KEY = 'chessence.token';
// The access keys of private games this page knows, by game id (Connection.setKey).
const accessKeys = new Map();
export const keyOf = (gameId) => accessKeys.get(gameId);
const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const PING_EVERY_MS = 20000;
const PONG_GRACE_MS = 8000;
// A connection not welcomed by then (stuck opening, or its hello unanswered) is dropped and retried.
const WELCOME_WITHIN_MS = 8000;

export class Connection {
    // url: the WebSocket endpoint; nameFn(): the display name to offer in hello (may be empty).
    constructor(url, { nameFn } = {}) {
        this.url_ = url;
        this.nameFn_ = nameFn ?? (() => '');
        this.handlers_ = new Map();
        this.stateHandlers_ = [];
        this.ws_ = null;
        this.state_ = 'connecting';
        this.attempt_ = 0;
        this.welcomed_ = false;
        this.everWelcomed_ = false;
        this.watched_ = new Map(); // game id → last version applied (0: none yet)
        this.retryTimer_ = null;
        this.welcomeTimer_ = null;
        this.pingTimer_ = null;
        this.pongTimer_ = null;
        this.retryAt_ = 0;
        this.restartDelayMs_ = null; // set by server_restart until the next welcome
        window.addEventListener('offline', () => this.drop_('offline'));
        window.addEventListener('online', () => this.reconnectNow());
    }

    get state() {
        return this.state_;
    }

    get retryAt() {
        return this.retryAt_;
    }

    // Registers handler(msg) for frames of `type` ("*" for every frame).
    on(type, handler) {
        if (!this.handlers_.has(type)) {
            this.handlers_.set(type, []);
        }
        this.handlers_.get(type).push(handler);
    }

    onState(handler) {
        this.stateHandlers_.push(handler);
    }

    connect() {
        clearTimeout(this.retryTimer_);
        this.setState_(this.everWelcomed_ ? 'reconnecting' : 'connecting');
        let ws;
        try {
            ws = new WebSocket(this.url_);
        } catch {
            this.scheduleRetry_();
            return;
        }
        this.ws_ = ws;
        this.welcomed_ = false;
        clearTimeout(this.welcomeTimer_);
        this.welcomeTimer_ = setTimeout(() => {
            if (this.ws_ === ws && !this.welcomed_) {
                this.drop_();
            }
        }, WELCOME_WITHIN_MS);
        ws.addEventListener('open', () => {
            if (this.ws_ !== ws) {
                return;
            }
            ws.send(JSON.stringify(build.hello(localStorage.getItem(TOKEN_KEY), this.nameFn_())));
        });
        ws.addEventListener('message', (e) => this.onFrame_(ws, e.data));
        ws.addEventListener('close', () => {
            if (this.ws_ === ws) {
                this.ws_ = null;
                this.stopPing_();
                if (this.state_ !== 'offline') {
                    this.scheduleRetry_();
                }
            }
        });
    }

    // Sends a request; false (and nothing sent) while not connected.
    send(msg) {
        if (!this.ws_ || !this.welcomed_ || this.ws_.readyState !== WebSocket.OPEN) {
            return false;
        }
        this.ws_.send(JSON.stringify(msg));
        return true;
    }

    // Follows a room; `since` null asks for a snapshot.
    watch(gameId, since = null) {
        this.watched_.set(gameId, since ?? 0);
        return this.send(build.watch(gameId, since ?? undefined, this.keyOf(gameId)));
    }

    // A private game's access key, from its link (`?key=`) or from its players' snapshot: sent
    // with every watch of the game, and part of the links the page shows.
    setKey(gameId, key) {
        if (key) {
            accessKeys.set(gameId, key);
        }
    }

    keyOf(gameId) {
        return keyOf(gameId);
    }

    unwatch(gameId) {
        this.watched_.delete(gameId);
        this.send(build.unwatch(gameId));
    }

    // Records that the room's state up to `version` has been applied (resume point).
    seen(gameId, version) {
        if (this.watched_.has(gameId) && version > this.watched_.get(gameId)) {
            this.watched_.set(gameId, version);
        }
    }

    // Closes the current socket as if the network had failed (tests, "reconnect" button).
    drop_(state = 'reconnecting') {
        this.setState_(state);
        const ws = this.ws_;
        this.ws_ = null;
        this.welcomed_ = false;
        this.stopPing_();
        ws?.close();
        if (state !== 'offline') {
            this.scheduleRetry_();
        }
    }

    reconnectNow() {
        if (this.ws_ && this.ws_.readyState <= WebSocket.OPEN) {
            return;
        }
        this.attempt_ = 0;
        this.connect();
    }

    onFrame_(ws, data) {
        if (this.ws_ !== ws) {
            return;
        }
        let msg;
        try {
            msg = JSON.parse(data);
        } catch {
            return;
        }
        if (!msg || typeof msg.type !== 'string') {
            return;
        }
        this.armPong_();
        if (msg.type === 'welcome') {
            const token = welcomeToken(msg);
            if (token) {
                localStorage.setItem(TOKEN_KEY, token);
            }
            const resumed = this.everWelcomed_;
            this.welcomed_ = true;
            this.everWelcomed_ = true;
            clearTimeout(this.welcomeTimer_);
            this.attempt_ = 0;
            this.restartDelayMs_ = null;
            this.setState_('online');
            this.startPing_();
            this.dispatch_(msg);
            for (const [gameId, version] of this.watched_) {
                this.send(build.watch(gameId, resumed && version > 0 ? version : undefined, this.keyOf(gameId)));
            }
            return;
        }
        if (msg.type === 'server_restart') {
            const most = Number.isInteger(msg.reconnect_ms) ? Math.max(250, msg.reconnect_ms) : 3000;
            this.restartDelayMs_ = 250 + Math.floor(Math.random() * (most - 250));
            this.setState_('restarting');
        }
        if (msg.type === 'error' && msg.code === 'server_restarting' && msg.game_id &&
            this.state_ !== 'restarting' && this.welcomed_) {
            // Cluster mode: this node does not own the game (any more). Reconnect soon (the load
            // balancer may pick the owner) and watch again from the last version seen.
            this.dispatch_(msg);
            this.restartDelayMs_ = 250 + Math.floor(Math.random() * 750);
            this.attempt_ = 0;
            this.drop_();
            return;
        }
        if (msg.type === 'error' && msg.code === 'bad_token') {
            // Only a definite "unknown token" forgets it (a welcome for a new guest follows).
            localStorage.removeItem(TOKEN_KEY);
        }
        if (msg.type === 'error' && !this.welcomed_ &&
            (msg.code === 'internal_error' || msg.code === 'rate_limited')) {
            // hello failed on the server's side (it could not read the account) or was refused for
            // now (too many new guests from this address): the token stays; close and say hello
            // again after the backoff.
            this.dispatch_(msg);
            this.drop_();
            return;
        }
        if (msg.type === 'snapshot' && typeof msg.access_key === 'string') {
            this.setKey(msg.game_id, msg.access_key);
        }
        if (msg.type === 'event' || msg.type === 'events') {
            const gameId = gameIdOf(msg);
            const version = eventVersion(msg);
            if (gameId && version !== null) {
                this.dispatch_(msg);
                this.seen(gameId, version);
                return;
            }
        }
        this.dispatch_(msg);
    }

    dispatch_(msg) {
        for (const h of [...(this.handlers_.get(msg.type) ?? []), ...(this.handlers_.get('*') ?? [])]) {
            h(msg);
        }
    }

    setState_(state) {
        this.state_ = state;
        for (const h of this.stateHandlers_) {
            h(state);
        }
    }

    scheduleRetry_() {
        clearTimeout(this.retryTimer_);
        const base = BACKOFF_MS[Math.min(this.attempt_, BACKOFF_MS.length - 1)];
        // After server_restart the first attempt waits the random delay it chose; later ones back
        // off as usual (the server may take a while to come back).
        const delay = this.restartDelayMs_ !== null && this.attempt_ === 0
            ? this.restartDelayMs_ : base + Math.floor(Math.random() * base * 0.3);
        this.attempt_++;
        this.retryAt_ = Date.now() + delay;
        this.setState_('reconnecting');
        this.retryTimer_ = setTimeout(() => this.connect(), delay);
    }

    startPing_() {
        this.stopPing_();
        this.pingTimer_ = setInterval(() => this.send(build.ping()), PING_EVERY_MS);
        this.armPong_();
    }

    // Any frame proves the link alive; silence after a ping means a dead link: drop and retry.
    armPong_() {
        clearTimeout(this.pongTimer_);
        if (this.pingTimer_) {
            this.pongTimer_ = setTimeout(() => this.drop_(), PING_EVERY_MS + PONG_GRACE_MS);
        }
    }

    stopPing_() {
        clearInterval(this.pingTimer_);
        clearTimeout(this.pongTimer_);
        this.pingTimer_ = null;
    }
}
