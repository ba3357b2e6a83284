// A path no page answers (/editor, /nope, a mistyped link): says so, with the ways back, instead of
// showing the lobby as if that were what was asked for.
import { missingPage } from './ui.js';
import { setTitle } from './notify.js';

export class NotFoundPage {
    constructor(app, root) {
        this.root_ = root;
    }

    enter() {
        setTitle('Page not found — Chessence');
        this.root_.replaceChildren(missingPage({
            title: 'Page not found',
            text: `There is no page “${location.pathname}” on this site: the link may be mistyped, or the page `
                + 'is not there yet.',
        }));
        this.root_.firstElementChild.dataset.notFound = '';
    }

    leave() {}
}
