/* global document, NodeFilter */
/* eslint-disable @typescript-eslint/no-unused-expressions -- one function expression, evaluated in the page by page.evaluate */
// Runs inside the console's page (page.evaluate): every text node and every label-like attribute,
// judged for catalogue keys printed as text and, on a Korean page, for Latin words that are no
// code. A code is written like one: with a digit, an underscore, a dot or @, in camelCase, or in
// capitals; or it sits in an element that holds codes, the gateway's text or what people typed.
(({ keys, allowedIn, dataWords }) => {
  const found = { keys: [], english: [] };
  const data = new Set(dataWords);
  const codeLike = (word) => /[0-9_.@]/.test(word) || /[a-z][A-Z]/.test(word) || /^[A-Z][A-Z-]*$/.test(word) || data.has(word);
  const judge = (text, where) => {
    for (const key of keys) if (text.includes(key)) found.keys.push(`${key} in <${where.tagName.toLowerCase()}>`);
    if (where.closest(allowedIn)) return;
    for (const word of text.match(/[A-Za-z][A-Za-z0-9_.@'-]*/g) || []) {
      if (!codeLike(word)) found.english.push(`${word} in ${where.outerHTML.slice(0, 140)}`);
    }
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const parent = node.parentElement;
    // An option whose text is its value is a code offered as itself (an event type).
    if (parent.tagName === 'OPTION' && parent.value === node.textContent.trim()) continue;
    judge(node.textContent || '', parent);
  }
  for (const element of Array.from(document.querySelectorAll('[placeholder], [aria-label], [title], [data-label-hour]'))) {
    for (const name of ['placeholder', 'aria-label', 'title', 'data-label-hour', 'data-label-empty', 'data-label-axis', 'data-label-unavailable']) {
      const value = element.getAttribute(name);
      // A placeholder that names a field (shopOrderNo) is a code.
      if (value && !(name === 'placeholder' && /^[a-z]+[A-Z][A-Za-z]*$/.test(value))) judge(value, element);
    }
  }
  judge(document.title.replace('payment-noti-receiver', ''), document.head);
  return found;
})
