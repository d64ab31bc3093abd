// A button with data-copy puts that text on the clipboard (the pgCno an operator pastes into the
// gateway's portal). Served as a file: the console's policy runs no inline script.
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  const done = () => { button.textContent = button.getAttribute('data-copied') || button.textContent; };
  if (navigator.clipboard) navigator.clipboard.writeText(button.getAttribute('data-copy')).then(done, () => undefined);
});
