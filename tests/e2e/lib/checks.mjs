// Checks run inside the page: controls too small to tap, things cut off, text without enough
// contrast. Each returns a list of problems (empty when all is well) naming the element.

// Visible controls (buttons, links, inputs, selects, board squares) smaller than `min` px in either
// direction. A control inside a <label> is measured with its label (the label is its target).
export async function smallControls(page, min = 44) {
    return page.evaluate((minPx) => {
        const out = [];
        const sel = 'button, a[href], input, select, textarea, [role="button"], summary';
        for (const el of document.querySelectorAll(sel)) {
            const target = el.closest('label') ?? el;
            const r = target.getBoundingClientRect();
            const style = getComputedStyle(el);
            if (r.width === 0 || r.height === 0 || style.visibility === 'hidden' || el.closest('[hidden], dialog:not([open])')) {
                continue;
            }
            if (el.matches('.skip-link') || (el.matches('input') && getComputedStyle(el).opacity === '0' && !el.closest('label'))) {
                continue;
            }
            if (r.width + 0.5 < minPx || r.height + 0.5 < minPx) {
                const name = el.getAttribute('aria-label') || el.dataset.square || el.textContent.trim().slice(0, 30) || el.outerHTML.slice(0, 60);
                out.push(`${el.tagName.toLowerCase()} "${name}" ${Math.round(r.width)}×${Math.round(r.height)}`);
            }
        }
        return out;
    }, min);
}

// Content wider than the window, and the listed selectors not wholly inside the window.
export async function cutOff(page, selectors = []) {
    return page.evaluate((sels) => {
        const out = [];
        const w = window.innerWidth;
        const h = window.innerHeight;
        if (document.documentElement.scrollWidth > w + 1) {
            out.push(`page is ${document.documentElement.scrollWidth}px wide in a ${w}px window`);
        }
        for (const s of sels) {
            const el = document.querySelector(s);
            if (!el) {
                out.push(`${s} is missing`);
                continue;
            }
            const r = el.getBoundingClientRect();
            if (r.left < -1 || r.top < -1 || r.right > w + 1 || r.bottom > h + 1) {
                out.push(`${s} at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} `
                         + `is not wholly inside ${w}×${h}`);
            }
        }
        return out;
    }, selectors);
}

// Text whose colour against its (opaque) background is below `min`:1 (WCAG relative luminance).
// Covers HTML text and the board's SVG coordinates.
export async function lowContrast(page, min = 4.5) {
    return page.evaluate((minRatio) => {
        const parse = (c) => {
            const m = c.match(/rgba?\(([^)]+)\)/);
            if (!m) {
                return null;
            }
            const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
            return { r, g, b, a };
        };
        const lum = ({ r, g, b }) => {
            const f = (v) => {
                const s = v / 255;
                return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
            };
            return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
        };
        const ratio = (a, b) => {
            const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
            return (x + 0.05) / (y + 0.05);
        };
        const background = (el) => {
            for (let e = el; e; e = e.parentElement) {
                const bg = parse(getComputedStyle(e).backgroundColor);
                if (bg && bg.a > 0.9 && !getComputedStyle(e).backgroundImage.includes('gradient')) {
                    return bg;
                }
                if (getComputedStyle(e).backgroundImage.includes('gradient')) {
                    return null; // a gradient: checked by eye on the screenshots
                }
            }
            return parse(getComputedStyle(document.body).backgroundColor);
        };
        const out = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        const seen = new Set();
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const el = n.parentElement;
            if (!n.textContent.trim() || seen.has(el) || el.closest('svg, [hidden], dialog:not([open]), .skip-link')) {
                continue;
            }
            seen.add(el);
            const r = el.getBoundingClientRect();
            const style = getComputedStyle(el);
            if (r.width === 0 || style.visibility === 'hidden' || Number(style.opacity) < 0.1) {
                continue;
            }
            const fg = parse(style.color);
            const bg = background(el);
            if (fg && bg && fg.a > 0.9 && !el.closest('button:disabled')) {
                const c = ratio(fg, bg);
                if (c < minRatio) {
                    out.push(`"${n.textContent.trim().slice(0, 40)}" ${style.color} on ${getComputedStyle(el).backgroundColor} (${el.className || el.tagName}): ${c.toFixed(2)}:1`);
                }
            }
        }
        for (const t of document.querySelectorAll('svg.board text.coord')) {
            const fill = parse(getComputedStyle(t).fill);
            const sq = parse(getComputedStyle(t.parentElement.querySelector('.sq-fill')).fill);
            if (fill && sq && ratio(fill, sq) < minRatio) {
                out.push(`coordinate ${t.textContent} on ${t.parentElement.dataset.square}: ${ratio(fill, sq).toFixed(2)}:1`);
            }
        }
        return out;
    }, min);
}
