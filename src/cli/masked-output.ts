import { maskCardText } from '../observability/card-numbers';

/**
 * The CLI's last guard before a terminal: card data masked in whatever a command, commander or a
 * failure writes. A card number is found within one line and one column: the gap the tables put
 * between columns (two spaces or more) ends a number as a line break does, so a figure in one
 * column and the next column's never read as one card. A cell is masked whole before it is laid
 * out (table.ts), so a card written with a wide gap inside one field is masked there.
 */
const COLUMN_GAP = / {2,}/;

export function maskedOutput(text: string): string {
  if (!COLUMN_GAP.test(text)) return maskCardText(text);
  return text.split(/( {2,})/).map((piece, i) => (i % 2 === 1 ? piece : maskCardText(piece))).join('');
}
