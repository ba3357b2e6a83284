// Wiring: one connection, the header (name, settings, connection state), the routes between the
// pages, and messages that matter on every page. Pages live on real paths (/game/<id>,
// /learn/chessence, …); router.js turns old hash links into them.
import { Connection } from './socket.js';
import { gamePath } from './api.js';
import { build, readError, readPlayer, readSeekCancelled, readSeekCreated, readStarted,
         welcomeGames } from './protocol.js';
import { LobbyPage } from './lobby.js';
import { JoinPage } from './join.js';
import { GamePage } from './game.js';
import { LearnPage } from './learn.js';
import { AnalysisPage } from './analysis.js';
import { PuzzlesPage } from './puzzles.js';
import { Router, currentRoute } from './router.js';
import { SettingsDialog, applyToDocument } from './settings.js';
import { soundLog } from './sound.js';
import { installAccounts } from './account.js';
import { LeaderboardPage, PlayerPage } from './player.js';
import { BUSY_TEXT, ComputerDialog } from './computer_form.js';
import { TournamentsPage } from './tournaments_page.js';
import { TournamentPage } from './tournament_page.js';
import { TournamentPresence } from './tournament_presence.js';
import { errorText } from './ui.js';
import { NotFoundPage } from './not_found.js';

const NAME_KEY = 'chessence.name';
const NAME_PATTERN = /^[A-Za-z0-9 _.\-]{1,20}$/;

// Route name (the first path segment) → page class: new pages add a line here.
const ROUTES = {
    '': LobbyPage,
    'index.html': LobbyPage,
    game: GamePage,
    join: JoinPage,
    learn: LearnPage,
    analysis: AnalysisPage,
    puzzles: PuzzlesPage,
    player: PlayerPage,
    leaderboard: LeaderboardPage,
    tournaments: TournamentsPage,
    tournament: TournamentPage,
};

const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
const conn = new Connection(wsUrl, { nameFn: () => localStorage.getItem(NAME_KEY) ?? '' });
const main = document.getElementById('main');
const toastEl = document.getElementById('toast');
let toastTimer = null;
let page = null;

// What every page may use.
const app = {
    conn,
    me: { id: '', name: '' },
    myGames: [],
    mySeeks: new Map(), // seek id → seek: this player's open seeks, private ones included
    soundLog,
    toast(text) {
        toastEl.textContent = text;
        toastEl.hidden = false;
        clearTimeout(toastTimer);
        toastTimer = setTimeout(() => { toastEl.hidden = true; }, 4500);
    },
    navigate(path, options) {
        router.go(path, options);
    },
    inviteLink: (seekId) => `${location.origin}/join/${encodeURIComponent(seekId)}`,
    gameLink: (gameId) => `${location.origin}${gamePath(gameId)}`,
    openSettings: (options = {}) => settings.open({ name: app.me.name, ...options }),
    // "Play the computer": the form, with `variant` selected if given (computer_form.js).
    playComputer(variant) {
        computer ??= new ComputerDialog(app);
        computer.show(variant);
    },
    // A new game against the computer without the form (the same settings again); false if not sent.
    startComputer(options) {
        if (!conn.send(build.computerGame(options))) {
            app.toast('Not connected yet — try again in a moment.');
            return false;
        }
        return true;
    },
};
let computer = null;
window.chessence = app;
// Before the pages' handlers: a pairing in a tournament takes the player to the game from any page.
app.tournaments = new TournamentPresence(app);

function route() {
    const { name, args } = currentRoute();
    const Page = Object.hasOwn(ROUTES, name) ? ROUTES[name] : NotFoundPage;
    page?.leave();
    toastEl.hidden = true;
    main.replaceChildren();
    page = new Page(app, main, ...args);
    document.body.dataset.page = name || 'lobby';
    delete document.body.dataset.variant;
    for (const a of document.querySelectorAll('.site-nav a')) {
        const current = a.dataset.nav === (name === '' ? 'play' : name === 'tournament' ? 'tournaments' : name);
        if (current) {
            a.setAttribute('aria-current', 'page');
        } else {
            a.removeAttribute('aria-current');
        }
    }
    page.enter();
    window.scrollTo(0, 0);
}
const router = new Router(route);

// ---- Header --------------------------------------------------------------------------------------

// A narrow screen's menu (under 900 px the five links do not fit beside the brand and the account):
// the button opens them in a panel under the header; a link followed, a click elsewhere or Escape
// closes it.
const menuButton = document.getElementById('menu-button');
const siteNav = document.getElementById('site-nav');
function openMenu(open) {
    menuButton.setAttribute('aria-expanded', String(open));
    siteNav.classList.toggle('open', open);
}
menuButton.addEventListener('click', () => openMenu(menuButton.getAttribute('aria-expanded') !== 'true'));
siteNav.addEventListener('click', (e) => {
    if (e.target.closest('a')) {
        openMenu(false);
    }
});
document.addEventListener('click', (e) => {
    if (!e.target.closest?.('#site-nav, #menu-button')) {
        openMenu(false);
    }
});
document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && siteNav.classList.contains('open')) {
        openMenu(false);
        menuButton.focus();
    }
});

// Stores and sends a new name; false (with a message) when it breaks the rules.
function saveName(name) {
    if (!NAME_PATTERN.test(name)) {
        app.toast('A name has 1–20 letters, digits, spaces, _ - or .');
        return false;
    }
    localStorage.setItem(NAME_KEY, name);
    if (!conn.send(build.setName(name))) {
        app.toast('Not connected: your name will be sent when the connection is back.');
    }
    return true;
}
const settings = new SettingsDialog(document.getElementById('settings'), { onName: saveName });
const meName = document.getElementById('me-name');
document.getElementById('me-button').addEventListener('click', () => app.openSettings({ focusName: true }));
document.getElementById('settings-button').addEventListener('click', () => app.openSettings());
function showName() {
    meName.textContent = app.me.name || localStorage.getItem(NAME_KEY) || 'Guest';
}
showName();
applyToDocument();

const connEl = document.getElementById('conn');
const CONN_TEXT = { online: 'Online', connecting: 'Connecting…', reconnecting: 'Reconnecting…',
                    restarting: 'Server restarting — reconnecting…',
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
    app.account = msg.account ?? null; // before the page hears of it (account.js draws the menu)
    app.mySeeks.clear(); // the server announces the open ones again
    app.myGames = welcomeGames(msg);
    document.body.dataset.player = app.me.id;
    showName();
    page?.onWelcome?.();
});

conn.on('player', (msg) => {
    app.me = readPlayer(msg);
    localStorage.setItem(NAME_KEY, app.me.name);
    showName();
    app.toast(`You are now “${app.me.name}”.`);
    page?.onPlayer?.();
});

conn.on('seek_created', (msg) => {
    const seek = readSeekCreated(msg);
    app.mySeeks.set(seek.id, seek);
});
conn.on('seek_cancelled', (msg) => app.mySeeks.delete(readSeekCancelled(msg)));

conn.on('game_started', (msg) => {
    const started = readStarted(msg);
    computer?.started();
    for (const [id, seek] of app.mySeeks) {
        if (!started.vsComputer && seek.variant === started.variant) {
            app.mySeeks.delete(id); // most likely the seek that was just accepted
            break;
        }
    }
    if (!app.myGames.includes(started.gameId)) {
        app.myGames.push(started.gameId);
    }
    app.navigate(`/game/${encodeURIComponent(started.gameId)}`);
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
    if (computer?.error(err)) {
        return;
    }
    if (err.code === 'bots_busy') {
        app.toast(BUSY_TEXT);
    } else if (!page?.onError?.(err)) {
        app.toast(errorText(err));
    }
});

conn.on('*', (msg) => page?.handle?.(msg));

// Accounts (account.js): after a login or a registration the header and the page start again as
// the account.
app.refresh = () => {
    showName();
    route();
};
installAccounts(app, document.getElementById('account'));

route();
conn.connect();
