import { textCell, type ExportCell } from './export-cell';

/**
 * An identifier (pgCno, an approval number, an order number, an event or mall id, a gateway code):
 * text that a spreadsheet must never read as a number or a date. A 20-digit pgCno read as a number
 * keeps 15 significant digits (`2.6112112583E+19`, every wallet order the same), an approval number
 * loses its leading zeros and an order number `11-27` becomes 27 November. Masked and neutralised
 * as any text; each writer spells the flag its own way (a text cell in the .xlsx, a mark in the CSV).
 */
export function identifierCell(field: string, value: string | null | undefined): ExportCell {
  const cell = textCell(field, value);
  return cell.kind === 'text' ? { ...cell, identifier: true } : cell;
}
