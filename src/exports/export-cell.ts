import { maskFreeText, maskSensitive } from '../observability/mask';
import { isCurrencyCode, minorToDecimalText, minorUnitDigits } from '../money/format-money';
import { neutraliseText } from './neutralise';

/**
 * One cell of an exported row, as the writers need it: text is already masked and neutralised;
 * money stays in minor units with its currency until a writer turns it into the major unit; a time
 * is an ISO instant the writers show in Korean time; a count is a plain integer. An identifier is
 * text a spreadsheet must keep as text (identifier-cell.ts); a date is a KST day (`2026-12-02`).
 */
export type ExportCell =
  | { kind: 'text'; text: string; identifier?: true }
  | { kind: 'date'; day: string }
  | { kind: 'money'; minor: number; currency: string }
  | { kind: 'time'; iso: string }
  | { kind: 'count'; value: number }
  | { kind: 'empty' };

export const EMPTY: ExportCell = { kind: 'empty' };

/**
 * Text for a cell, masked as the console's pages mask the same value: by the column's field name
 * (`customerName`, `cardNo`) and by what it looks like wherever it stands (a card number in a
 * `shopValue`), then neutralised so no spreadsheet runs it as a formula.
 */
export function textCell(field: string, value: string | null | undefined): ExportCell {
  if (value === null || value === undefined || value === '') return EMPTY;
  const masked = (maskSensitive({ [field]: value }) as Record<string, unknown>)[field];
  return { kind: 'text', text: neutraliseText(typeof masked === 'string' ? masked : String(masked)) };
}

/** A structure (a notification's fields, a discrepancy's details) as one masked JSON text. */
export function jsonCell(value: unknown): ExportCell {
  if (value === null || value === undefined) return EMPTY;
  return { kind: 'text', text: neutraliseText(JSON.stringify(maskSensitive(value))) };
}

export function moneyCell(minor: number | null | undefined, currency: string): ExportCell {
  return typeof minor === 'number' && Number.isSafeInteger(minor) ? { kind: 'money', minor, currency } : EMPTY;
}

export function timeCell(iso: string | null | undefined): ExportCell {
  return iso && !Number.isNaN(Date.parse(iso)) ? { kind: 'time', iso } : EMPTY;
}

export function countCell(value: number): ExportCell {
  return { kind: 'count', value };
}

/** Answers by currency code: Intl builds a formatter per question, which a million rows cannot pay for. */
const DIGITS = new Map<string, number>();

/** The currency's decimals; a code Intl does not know is shown in minor units (0 decimals) rather than guessed. */
export function currencyDigits(currency: string): number {
  let digits = DIGITS.get(currency);
  if (digits === undefined) {
    digits = isCurrencyCode(currency) ? minorUnitDigits(currency) : 0;
    // Bounded: a code comes from an expectation, and only the first few hundred are kept.
    if (DIGITS.size < 256) DIGITS.set(currency, digits);
  }
  return digits;
}

/** The amount in the major unit, as exact decimal text (`-30.00`, `12000`). */
export function majorUnitText(cell: { minor: number; currency: string }): string {
  return minorToDecimalText(cell.minor, currencyDigits(cell.currency));
}

/** Text with no field structure (an endpoint's error answer): masked as the pages mask it, every long digit run included. */
export function freeTextCell(value: string | null | undefined): ExportCell {
  if (value === null || value === undefined || value === '') return EMPTY;
  return { kind: 'text', text: neutraliseText(maskFreeText(value)) };
}
