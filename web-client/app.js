// Wiring: one connection, the header (name, connection state), hash routing between the pages
// (#/ lobby, #/game/<id>, #/join/<seek_id>, #/player/<id>, #/leaderboard/<game>), and messages that matter on every page.
import { Connection } from './socket.js';
import { build, readError, readPlayer, readStarted, welcomeGames } from './protocol.js';
import { JoinPage, LobbyPage } from './lobby.js';
import { GamePage } from './game.js';
import { installAccounts } from './account.js';
import { LeaderboardPage, PlayerPage } from './player.js';

const NAME_KEY = 'chessence.name';
const NAME_PATTERN = /^[A-Za-z0-9 _.\-]{1,20}$/;

const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
const conn = new Connection(wsUrl, { nameFn: () => localStorage.getItem(NAME_KEY) ?? '' });
const main = document.getElementById('main');
const toastEl = document.getElementById('toast');
let toastTimer = null;

// What every page may use.
const app = {
    conn,
    me: { id: '', name: '' },
    myGames: [],
    toast(text) {
        toastEl.textContent = text;
        toastEl.hidden = false;
        clearTimeout(toastTimer);
        toastTimer = setTimeout(() => { toastEl.hidden = true; }, 4500);
    },
    navigate(hash) {
        if (location.hash !== hash) {
            location.hash = hash;
        } else {
            route();
        }
    },
    inviteLink: (seekId) => `${location.origin}${location.pathname}#/join/${encodeURIComponent(seekId)}`,
    gameLink: (gameId) => `${location.origin}${location.pathname}#/game/${encodeURIComponent(gameId)}`,
};
window.chessence = app;

let page = null;

function route() {
    const hash = location.hash || '#/';
    const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
    page?.leave();
    toastEl.hidden = true;
    main.replaceChildren();
    if (parts[0] === 'game' && parts[1]) {
        page = new GamePage(app, main, parts[1]);
    } else if (parts[0] === 'player' && parts[1]) {
        page = new PlayerPage(app, main, parts[1]);
    } else if (parts[0] === 'leaderboard') {
        page = new LeaderboardPage(app, main, parts[1]);
    } else if (parts[0] === 'join' && parts[1]) {
        page = new JoinPage(app, main, parts[1]);
    } else {
        page = new LobbyPage(app, main);
    }
    page.enter();
}

// ---- Header --------------------------------------------------------------------------------------

const nameForm = document.getElementById('name-form');
const nameInput = document.getElementById('name-input');
nameInput.value = localStorage.getItem(NAME_KEY) ?? '';
nameForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const name = nameInput.value.trim();
    if (!NAME_PATTERN.test(name)) {
        app.toast('A name has 1–20 letters, digits, spaces, _ - or .');
        return;
    }
    localStorage.setItem(NAME_KEY, name);
    if (!conn.send(build.setName(name))) {
        app.toast('Not connected: your name will be sent when the connection is back.');
    }
});

const connEl = document.getElementById('conn');
const CONN_TEXT = { online: 'Online', connecting: 'Connecting…', reconnecting: 'Reconnecting…',
                    offline: 'Offline — waiting for the network' };
let connTicker = null;
function showConnection(state) {
    connEl.dataset.state = state;
    document.body.dataset.conn = state;
    const text = connEl.querySelector('.conn-text');
    clearInterval(connTicker);
    const paint = () => {
        const secs = Math.ceil((conn.retryAt - Date.now()) / 1000);
        text.textContent = state === 'reconnecting' && secs > 1
            ? `Reconnecting in ${secs}s…` : CONN_TEXT[state] ?? state;
    };
    paint();
    if (state === 'reconnecting') {
        connTicker = setInterval(paint, 1000);
    }
}
conn.onState(showConnection);
connEl.addEventListener('click', () => conn.reconnectNow());

// ---- Messages for every page ------------------------------------------------------------------------

conn.on('welcome', (msg) => {
    app.me = readPlayer(msg);
    app.myGames = welcomeGames(msg);
    const stored = localStorage.getItem(NAME_KEY);
    if (!stored || stored !== app.me.name) {
        nameInput.value = app.me.name;
    }
    document.body.dataset.player = app.me.id;
    page?.onWelcome?.();
});

conn.on('player', (msg) => {
    app.me = readPlayer(msg);
    nameInput.value = app.me.name;
    localStorage.setItem(NAME_KEY, app.me.name);
    app.toast(`You are now “${app.me.name}”.`);
    page?.onPlayer?.();
});

conn.on('game_started', (msg) => {
    const started = readStarted(msg);
    if (!app.myGames.includes(started.gameId)) {
        app.myGames.push(started.gameId);
    }
    app.navigate(`#/game/${encodeURIComponent(started.gameId)}`);
    page?.onStarted?.(started);
});

conn.on('error', (msg) => {
    const err = readError(msg);
    if (err.code === 'bad_name') {
        localStorage.removeItem(NAME_KEY);
    }
    if (err.code === 'bad_token') {
        return; // the server follows with a welcome for a new guest; socket.js stores its token
    }
    if (!page?.onError?.(err)) {
        app.toast(err.message || err.code.replace(/_/g, ' '));
    }
});

conn.on('*', (msg) => page?.handle?.(msg));

// Accounts (account.js): after a login the page starts again as the account.
app.refresh = () => route();
installAccounts(app, document.getElementById('account'));

window.addEventListener('hashchange', route);
route();
conn.connect();
