/**
 * Spreadsheet formula injection (OWASP "CSV Injection"): a cell whose text starts with `=`, `+`,
 * `-` or `@` is read by Excel, LibreOffice and Google Sheets as a formula. The gateway passes the
 * shop's `shopValue` fields, product and buyer names through as it got them, so any text cell may
 * carry one. A single quote in front makes every one of those programs take the cell as text,
 * and the reader still sees the whole value.
 *
 * What a spreadsheet skips before it looks is skipped here too: control characters (a NUL, a tab,
 * a line feed, a carriage return: LibreOffice's CSV import drops them and runs what follows),
 * spaces of every kind, and invisible format characters (a byte order mark, a zero-width space, a
 * bidi mark); and the full-width and small forms `＝＋－＠` `﹦﹢﹣﹫` count as the ASCII signs
 * they stand for (Unicode's compatibility folding, NFKC, which some spreadsheets apply on import).
 * A cell that starts with a tab or a carriage return is quoted whatever follows, as before.
 */
const SKIPPED = /^[\p{Cc}\p{Cf}\p{Z}\s]*/u;
const FORMULA_SIGNS = new Set(['=', '+', '-', '@']);

export function startsFormula(text: string): boolean {
  if (/^[\t\r]/.test(text)) return true;
  const first = text.slice(SKIPPED.exec(text)![0].length).codePointAt(0);
  return first !== undefined && FORMULA_SIGNS.has(String.fromCodePoint(first).normalize('NFKC')[0]!);
}

export function neutraliseText(text: string): string {
  return startsFormula(text) ? `'${text}` : text;
}
