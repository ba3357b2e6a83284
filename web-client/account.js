// Accounts in the browser (issue 16): the header's account menu — register and log in (username +
// password), log out, log out everywhere, change password — and what follows from the server's
// signed_in / signed_out frames. A guest who registers keeps its games: the server keeps its id.
import { build, readPlayer, welcomeGames } from './protocol.js';
import { TOKEN_KEY } from './socket.js';
import { h } from './ui.js';

const USERNAME = /^[A-Za-z0-9_-]{3,20}$/;
const SIGNED_OUT_TEXT = {
    logout: 'You are logged out.', logout_everywhere: 'You were logged out everywhere.',
    registered: 'This guest has become an account: log in to continue as it.',
    password_changed: 'Your password was changed: log in again.',
    account_closed: 'This account has been closed by an admin.',
};

export function installAccounts(app, host) {
    const { conn } = app;
    app.account = null;
    let open = false;
    let mode = 'login'; // 'login' | 'password'

    const field = (name, label, attrs) => h('label', { class: 'field' }, label,
        h('input', { name, required: true, ...attrs }));

    function sendOrWarn(msg) {
        if (!conn.send(msg)) {
            app.toast('Not connected yet — try again in a moment.');
            return false;
        }
        return true;
    }

    function signInForm() {
        const form = h('form', { class: 'account-form', 'data-form': 'sign-in', autocomplete: 'on' },
            field('username', 'Username', { autocomplete: 'username', maxlength: 20, pattern: '[A-Za-z0-9_\\-]{3,20}' }),
            field('password', 'Password', { type: 'password', autocomplete: 'current-password', maxlength: 256 }),
            h('p', { class: 'form-note' }, '3–20 letters, digits, _ or -; a password of 8 characters or more.'),
            h('div', { class: 'row' },
              h('button', { type: 'submit', class: 'btn primary small', value: 'login', 'data-action': 'login' }, 'Log in'),
              h('button', { type: 'submit', class: 'btn small', value: 'register', 'data-action': 'register' }, 'Register')));
        form.addEventListener('submit', (e) => {
            e.preventDefault();
            const username = form.elements.username.value.trim();
            const password = form.elements.password.value;
            const register = e.submitter?.value === 'register';
            if (!USERNAME.test(username)) {
                app.toast('A username has 3–20 letters, digits, _ or -.');
                return;
            }
            if (register && [...password].length < 8) {
                app.toast('A password has at least 8 characters.');
                return;
            }
            sendOrWarn(register ? { type: 'register', username, password } : { type: 'login', username, password });
        });
        return form;
    }

    function passwordForm() {
        const form = h('form', { class: 'account-form', 'data-form': 'password' },
            field('password', 'Current password', { type: 'password', autocomplete: 'current-password' }),
            field('new_password', 'New password', { type: 'password', autocomplete: 'new-password', minlength: 8 }),
            h('div', { class: 'row' }, h('button', { type: 'submit', class: 'btn primary small' }, 'Change password')));
        form.addEventListener('submit', (e) => {
            e.preventDefault();
            sendOrWarn({ type: 'change_password', password: form.elements.password.value,
                         new_password: form.elements.new_password.value });
        });
        return form;
    }

    function render() {
        const a = app.account;
        const toggle = h('button', { type: 'button', class: 'btn ghost account-button', 'data-action': 'account-menu',
                                     'aria-expanded': String(open) }, a ? a.username : 'Sign in');
        toggle.addEventListener('click', () => {
            open = !open;
            mode = 'login';
            render();
        });
        const parts = [toggle];
        if (a && app.me.id) {
            parts.unshift(h('a', { class: 'btn ghost my-page', href: `/player/${encodeURIComponent(app.me.id)}` }, 'My page'));
        }
        if (open) {
            const panel = h('div', { class: 'account-panel card' });
            if (!a) {
                panel.append(signInForm(), h('p', {}, h('a', { href: '/leaderboard/chessence' }, 'Leaderboards'), ' · ',
                                             h('a', { href: '/tournaments' }, 'Tournaments')));
            } else if (mode === 'password') {
                panel.append(passwordForm());
            } else {
                const logout = h('button', { type: 'button', class: 'btn small', 'data-action': 'logout' }, 'Log out');
                logout.addEventListener('click', () => sendOrWarn({ type: 'logout' }));
                const everywhere = h('button', { type: 'button', class: 'btn small', 'data-action': 'logout-everywhere' },
                                     'Log out everywhere');
                everywhere.addEventListener('click', () => sendOrWarn({ type: 'logout', everywhere: true }));
                const change = h('button', { type: 'button', class: 'btn small', 'data-action': 'change-password' },
                                 'Change password');
                change.addEventListener('click', () => {
                    mode = 'password';
                    render();
                });
                panel.append(h('p', {}, `Signed in as ${a.username}${a.admin ? ' (admin)' : ''}.`),
                             h('p', {}, h('a', { href: `/player/${encodeURIComponent(app.me.id)}` }, 'Your games and ratings'),
                               ' · ', h('a', { href: '/leaderboard/chessence' }, 'Leaderboards'),
                               ' · ', h('a', { href: '/tournaments' }, 'Tournaments')),
                             h('div', { class: 'row' }, logout, everywhere, change));
            }
            panel.addEventListener('click', (e) => {
                if (e.target.closest('a')) {
                    open = false; // the router follows the link; the menu closes
                    setTimeout(render);
                }
            });
            parts.push(panel);
        }
        host.replaceChildren(...parts);
        document.body.dataset.account = a ? a.username : '';
        // An account's name is its username, shown by the account button: the guest's name button
        // (which renames) would only repeat it.
        const meButton = document.getElementById('me-button');
        if (meButton) {
            meButton.style.display = a ? 'none' : '';
        }
    }

    conn.on('welcome', (msg) => {
        app.account = msg.account ?? null;
        render();
    });
    conn.on('signed_in', (msg) => {
        localStorage.setItem(TOKEN_KEY, msg.token);
        app.me = readPlayer(msg);
        app.myGames = welcomeGames(msg);
        app.account = msg.account;
        document.body.dataset.player = app.me.id;
        open = false;
        render();
        app.toast(`Signed in as ${msg.account.username}.`);
        app.refresh?.();
    });
    conn.on('signed_out', (msg) => {
        localStorage.removeItem(TOKEN_KEY);
        app.account = null;
        open = false;
        render();
        app.toast(SIGNED_OUT_TEXT[msg.reason] ?? 'You are signed out.');
        // The connection speaks for nobody now: continue as a new guest.
        conn.send(build.hello(undefined, undefined));
    });
    conn.on('password_changed', () => {
        open = false;
        render();
        app.toast('Password changed. Your other sessions were logged out.');
    });
    render();
}
