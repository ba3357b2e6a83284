// Telling a player whose tab is hidden that it is their move: the title flashes until the tab is
// seen again, and a browser notification appears when the player allowed them.
import { prefs } from './settings.js';

let baseTitle = document.title;
let flashTimer = null;
let flashText = '';
let note = null;

// The title a page wants when nothing flashes.
export function setTitle(text) {
    baseTitle = text;
    if (!flashTimer) {
        document.title = text;
    }
}

function stop() {
    clearInterval(flashTimer);
    flashTimer = null;
    document.title = baseTitle;
    note?.close();
    note = null;
}
document.addEventListener('visibilitychange', () => {
    if (!document.hidden) {
        stop();
    }
});
window.addEventListener('focus', stop);

// Calls attention to `text` ("Your move against Bob") if the page is hidden; returns whether it did.
export function attention(text) {
    if (!document.hidden) {
        return false;
    }
    flashText = text;
    if (!flashTimer) {
        let on = false;
        const tick = () => {
            on = !on;
            document.title = on ? `● ${flashText}` : baseTitle;
        };
        tick();
        flashTimer = setInterval(tick, 1000);
    }
    if (prefs.on('notify') && 'Notification' in window && Notification.permission === 'granted') {
        try {
            note?.close();
            note = new Notification('Chessence', { body: text, tag: 'chessence-turn', icon: '/favicon.svg' });
            note.onclick = () => {
                window.focus();
                note?.close();
            };
        } catch {
            note = null; // some browsers only allow notifications from a service worker
        }
    }
    return true;
}

export const flashing = () => flashTimer !== null;
