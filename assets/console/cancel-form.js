// The order page's Cancel form: typing an amount chooses a partial cancel, and choosing "all that
// is left" empties the amount, so the radio never says "all" while an amount stands beside it
// (the server reads a typed amount as a partial cancel in any case). Served as a file: the
// console's policy runs no inline script.
(function () {
  'use strict';
  function formOf(element) {
    return element instanceof window.Element ? element.closest('form.cancel-form') : null;
  }
  document.addEventListener('input', function (event) {
    var form = formOf(event.target);
    if (!form || event.target.name !== 'amount') return;
    var partial = form.querySelector('input[name="type"][value="partial"]');
    if (partial && event.target.value.trim() !== '') partial.checked = true;
  });
  document.addEventListener('change', function (event) {
    var form = formOf(event.target);
    if (!form || event.target.name !== 'type' || event.target.value !== 'full' || !event.target.checked) return;
    var amount = form.querySelector('input[name="amount"]');
    if (amount) amount.value = '';
  });
})();
