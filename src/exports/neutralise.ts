/**
 * Spreadsheet formula injection (OWASP "CSV Injection"): a cell whose text starts with `=`, `+`,
 * `-` or `@` is read by Excel, LibreOffice and Google Sheets as a formula, and a leading tab or
 * carriage return is stripped by some of them before they look. The gateway passes the shop's
 * `shopValue` fields, product and buyer names through as it got them, so any text cell may carry
 * one. A single quote in front makes every one of those programs take the cell as text, and the
 * reader still sees the whole value.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}
