// Client-side routes on real paths (/game/<id>, /learn/chessence, …): the server answers every path
// without an extension with index.html. Old hash links (#/game/<id>) still work: they are turned
// into paths. Links inside the app navigate without reloading the page.

// The route for the current location: {name, args}. A hash route (#/x/y) wins over the path.
export function currentRoute(loc = location) {
    const source = loc.hash.startsWith('#/') ? loc.hash.slice(1) : loc.pathname;
    const parts = source.replace(/^\/+/, '').split('/').filter(Boolean).map((p) => {
        try {
            return decodeURIComponent(p);
        } catch {
            return p;
        }
    });
    return { name: parts[0] ?? '', args: parts.slice(1) };
}

// The path a same-origin link leads to, or null when the browser should follow it itself.
export function appPath(anchor, event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey
        || event.shiftKey || event.altKey || anchor.target || anchor.hasAttribute('download')) {
        return null;
    }
    const url = new URL(anchor.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api/')) {
        return null;
    }
    if (url.hash.startsWith('#/')) {
        return url.hash.slice(1);
    }
    if (url.hash && url.pathname === location.pathname) {
        return null; // an anchor on this page (the skip link)
    }
    return url.pathname + url.search;
}

export class Router {
    // onRoute() is called whenever the route changes.
    constructor(onRoute) {
        this.onRoute_ = onRoute;
        window.addEventListener('popstate', () => this.onRoute_());
        document.addEventListener('click', (e) => {
            const a = e.target.closest?.('a[href]');
            const path = a ? appPath(a, e) : null;
            if (path !== null) {
                e.preventDefault();
                this.go(path);
            }
        });
        if (location.hash.startsWith('#/')) {
            history.replaceState(null, '', location.hash.slice(1));
        }
    }

    // Shows `path` (pushing a history entry unless it is the current one).
    go(path, { replace = false } = {}) {
        const here = location.pathname + location.search;
        if (path !== here || location.hash) {
            history[replace ? 'replaceState' : 'pushState'](null, '', path);
        }
        this.onRoute_();
    }
}
