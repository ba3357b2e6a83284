// A scripted stand-in for the server's WebSocket (page.routeWebSocket), for client-only tests:
// records what the page sends and lets the test push frames.
export async function mockSocket(page, { playerId = 'p_me', name = 'Me' } = {}) {
    const mock = { sent: [], ws: null, waiters: [] };
    await page.routeWebSocket(/\/ws$/, (ws) => {
        mock.ws = ws;
        ws.onMessage((data) => {
            const msg = JSON.parse(String(data));
            mock.sent.push(msg);
            if (msg.type === 'hello') {
                ws.send(JSON.stringify({ type: 'welcome', protocol: 1, server: 'mock',
                                         player: { id: playerId, name }, token: 'tok', games: [] }));
            }
            for (const w of [...mock.waiters]) {
                if (w.match(msg)) {
                    mock.waiters.splice(mock.waiters.indexOf(w), 1);
                    w.resolve(msg);
                }
            }
        });
    });
    mock.push = (msg) => mock.ws.send(JSON.stringify(msg));
    // Resolves with the first frame (already sent or future) matching `match`.
    mock.next = (match, timeoutMs = 5000) => {
        const found = mock.sent.find((m) => match(m) && !m.consumed_);
        if (found) {
            found.consumed_ = true;
            return Promise.resolve(found);
        }
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error('mock: expected frame not sent')), timeoutMs);
            mock.waiters.push({ match, resolve: (m) => { clearTimeout(timer); m.consumed_ = true; resolve(m); } });
        });
    };
    return mock;
}
