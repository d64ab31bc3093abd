import { inflateRawSync } from 'node:zlib';

/**
 * An .xlsx read without exceljs: the zip's central directory by hand, each entry inflated with
 * node's zlib, the sheet's XML read with a few expressions. A file exceljs wrote wrongly is not
 * read back rightly by exceljs's own reader here.
 */
export function zipEntries(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory entry');
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localAt = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8').replace(/^\//, '');
    const dataAt = localAt + 30 + zip.readUInt16LE(localAt + 26) + zip.readUInt16LE(localAt + 28);
    const data = zip.subarray(dataAt, dataAt + compressedSize);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

const decode = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'")
  .replace(/&#x([0-9a-f]+);/gi, (_m, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
  .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Number(dec))).replace(/&amp;/g, '&');

export interface SheetCell {
  /** `text` for a string cell, `number` for a number (dates are numbers with a date format). */
  type: 'text' | 'number';
  value: string | number;
  /** The cell's number format code ('General' without one). */
  format: string;
}

export interface ParsedWorkbook {
  sheetNames: string[];
  /** Each sheet's rows, each row its cells by column (A = 0), missing cells null. */
  sheets: Array<Array<Array<SheetCell | null>>>;
  /** Every sheet's XML, for what the parser does not model (a formula element, say). */
  sheetXml: string[];
}

function columnIndex(ref: string): number {
  const letters = /^[A-Z]+/.exec(ref)![0];
  return [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
}

export function parseXlsx(file: Buffer): ParsedWorkbook {
  const entries = zipEntries(file);
  const text = (name: string) => entries.get(name)?.toString('utf8') ?? '';
  const styles = text('xl/styles.xml');
  // Built-in formats a writer names by number: 14 a date, 49 text (`@`).
  const formats = new Map<number, string>([[0, 'General'], [14, 'm/d/yy'], [49, '@']]);
  for (const m of styles.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"\s*\/>/g)) formats.set(Number(m[1]), decode(m[2]!));
  const cellXfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(styles)?.[1] ?? '';
  const xfFormats = [...cellXfs.matchAll(/<xf\b([^>]*?)\/?>/g)].map((m) => formats.get(Number(/numFmtId="(\d+)"/.exec(m[1]!)?.[1] ?? 0)) ?? 'General');
  const workbook = text('xl/workbook.xml');
  const sheetNames = [...workbook.matchAll(/<sheet [^>]*name="([^"]*)"/g)].map((m) => decode(m[1]!));
  const sheetXml = sheetNames.map((_name, i) => text(`xl/worksheets/sheet${i + 1}.xml`));
  const sheets = sheetXml.map((xml) => [...xml.matchAll(/<row\b[^>]*>([\s\S]*?)<\/row>/g)].map((row) => {
    const cells: Array<SheetCell | null> = [];
    for (const c of row[1]!.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attributes = c[1]!;
      const ref = /r="([A-Z]+\d+)"/.exec(attributes)![1]!;
      const type = /\bt="(\w+)"/.exec(attributes)?.[1];
      const format = xfFormats[Number(/\bs="(\d+)"/.exec(attributes)?.[1] ?? 0)] ?? 'General';
      const body = c[2] ?? '';
      if (type === 'inlineStr') {
        cells[columnIndex(ref)] = { type: 'text', value: decode([...body.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join('')), format };
      } else if (type === 'str') {
        // A string value with no formula element beside it (the sheet holds no <f>: tested apart).
        cells[columnIndex(ref)] = { type: 'text', value: decode(/<v>([\s\S]*?)<\/v>/.exec(body)?.[1] ?? ''), format };
      } else if (type === 's') {
        throw new Error('a shared string: the export should write inline strings');
      } else {
        const v = /<v>([^<]*)<\/v>/.exec(body)?.[1];
        cells[columnIndex(ref)] = v === undefined ? null : { type: 'number', value: Number(v), format };
      }
    }
    return Array.from({ length: cells.length }, (_v, i) => cells[i] ?? null);
  }));
  return { sheetNames, sheets, sheetXml };
}

/** RFC 4180 back into rows (the BOM checked and dropped by the caller). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i += 1; } else if (ch === '"') quoted = false; else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(field); field = ''; }
    else if (ch === '\r' && text[i + 1] === '\n') { row.push(field); rows.push(row); row = []; field = ''; i += 1; }
    else field += ch;
  }
  if (field !== '' || row.length > 0) throw new Error('the CSV does not end with CRLF');
  return rows;
}

/**
 * The CSV's fields as a spreadsheet shows them: an identifier's leading word joiner (U+2060, the
 * mark that keeps it text on import) is invisible, so a field is compared without it.
 */
export function parseCsvAsShown(text: string): string[][] {
  return parseCsv(text).map((row) => row.map((field) => field.replace(/^\u2060/, '')));
}
