// Runs before the first paint (a plain script in <head>, no module): applies the remembered colour
// theme and board theme so the page never flashes in the wrong colours. settings.js owns the keys.
(function () {
    try {
        var root = document.documentElement;
        var theme = localStorage.getItem('chessence.theme');
        if (theme === 'light' || theme === 'dark') {
            root.dataset.theme = theme;
        }
        root.dataset.board = localStorage.getItem('chessence.board') || 'wood';
    } catch (e) {
        document.documentElement.dataset.board = 'wood';
    }
}());
