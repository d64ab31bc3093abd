// A button with data-copy puts that text on the clipboard (the pgCno an operator pastes into the
// gateway's portal). Served as a file: the console's policy runs no inline script.
(function () {
  'use strict';
  document.addEventListener('click', function (event) {
    var button = event.target instanceof window.Element ? event.target.closest('button[data-copy]') : null;
    if (!button || !window.navigator.clipboard) return;
    window.navigator.clipboard.writeText(button.getAttribute('data-copy')).then(function () {
      button.textContent = button.getAttribute('data-copied') || button.textContent;
    }, function () { return undefined; });
  });
})();
