/**
 * What an operator typed or pasted into a search box, as the text to look up. A value copied
 * from one of the exports' CSV files carries the invisible mark that keeps it text in a
 * spreadsheet (a word joiner, or a leading tab in the CP949 file); like any other format or
 * control character it is no part of an identifier, so it is dropped before the search.
 */
export function typedText(value: unknown): string {
  return typeof value === 'string' ? value.replace(/[\p{Cf}\p{Cc}]/gu, ' ').trim() : '';
}
