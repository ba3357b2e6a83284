// Small DOM helpers and the words the pages show for protocol values.

// h('div', {class: 'x'}, child, 'text', …): an element; null/undefined attributes and empty
// children are skipped.
export function h(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs ?? {})) {
        if (v === null || v === undefined || v === false) {
            continue;
        }
        e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) {
        if (c === null || c === undefined || c === '' || c === false) {
            continue;
        }
        e.append(c instanceof Node ? c : String(c));
    }
    return e;
}

const VARIANT_LABELS = { chessence: 'Chessence', chesica: 'Chesica', sniderman: 'Sniderman' };
export const variantLabel = (v) => VARIANT_LABELS[v] ?? v;

const SIDE_LABELS = { white: 'White', black: 'Black', odd: 'ODD', even: 'EVEN', random: 'Random' };
export const sideLabel = (s) => SIDE_LABELS[s] ?? s;

const REASONS = {
    checkmate: 'checkmate', stalemate: 'no legal move', threefold_repetition: 'threefold repetition',
    hundred_ply_rule: '100 plies without capture', all_captured: 'all pieces captured',
    no_legal_moves: 'no legal move', resignation: 'resignation', agreement: 'draw by agreement',
    match_won: 'match won', object_decided: 'the object decided', round_over: 'round over',
    timeout: 'out of time', abandoned: 'the opponent left', aborted: 'aborted before both moved',
};
export const reasonText = (r) => REASONS[r] ?? String(r ?? '').replace(/_/g, ' ');

// Copies text to the clipboard, falling back to selecting `input` (returns whether it copied).
export async function copyText(text, input) {
    try {
        await navigator.clipboard.writeText(text);
        return true;
    } catch {
        input?.select();
        try {
            return document.execCommand('copy');
        } catch {
            return false;
        }
    }
}
