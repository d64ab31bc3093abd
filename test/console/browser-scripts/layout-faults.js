/* global document, window, getComputedStyle */
/* eslint-disable @typescript-eslint/no-unused-expressions -- one function expression, evaluated in the page by page.evaluate */
// Runs inside the console's page (page.evaluate): what a person would find wrong in its layout.
// An order number wrapped is an inline box of several rects; the menu's rows are the distinct tops
// of its links; a placeholder is cut when its text is wider than its field's content box.
(() => {
  const brokenOrderNumbers = [...document.querySelectorAll('.order-no')]
    .filter((el) => el.textContent.trim() !== '' && el.getClientRects().length > 1)
    .map((el) => el.textContent);
  const tops = new Set([...document.querySelectorAll('header nav a')].map((a) => Math.round(a.getBoundingClientRect().top)));
  const canvas = document.createElement('canvas').getContext('2d');
  // Also the placeholder laid out as the field lays out its value: a search field keeps room for
  // its clear button, which the canvas does not know about.
  const laidOutWider = (input) => {
    const value = input.value;
    input.value = input.placeholder;
    const wider = input.scrollWidth > input.clientWidth;
    input.value = value;
    return wider;
  };
  const cutPlaceholders = [...document.querySelectorAll('input[placeholder]')].filter((input) => {
    const style = getComputedStyle(input);
    canvas.font = `${style.fontSize} ${style.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return canvas.measureText(input.placeholder).width > room || laidOutWider(input);
  }).map((input) => input.placeholder);
  return { brokenOrderNumbers, menuRows: tops.size, overflowsWindow: document.documentElement.scrollWidth > window.innerWidth, cutPlaceholders };
});
