// What a page's WebSockets received: every frame, parsed, in order, over every connection the page
// opens (a reconnect's too). Call before the page loads (page.goto), or the first frames are missed.
export function recordFrames(page) {
    const frames = [];
    page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => {
        try {
            frames.push(JSON.parse(String(payload)));
        } catch {
            frames.push({ type: null, raw: String(payload) }); // not JSON: kept, so that it shows
        }
    }));
    return frames;
}

// The types of the recorded frames, in order.
export const frameTypes = (frames) => frames.map((m) => m.type);
