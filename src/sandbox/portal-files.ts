import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import type { PortalCell, PortalList } from './portal-lists';

export type PortalFormat = 'xlsx' | 'csv';

export interface PortalHeading {
  mallId: string;
  from: string;
  to: string;
}

/** The lines a portal puts above its header: the list's name, the period asked for, the merchant. */
const headingLines = (list: PortalList, heading: PortalHeading) => [list.title, `조회기간: ${heading.from} ~ ${heading.to}`, `가맹점번호: ${heading.mallId}`];

/**
 * As the portal's Excel download: a merged title, the period and the merchant above a blank line,
 * then the header, the rows (amounts as numbers shown with separators, times as Excel dates) and
 * a totals row.
 */
async function xlsxFile(list: PortalList, heading: PortalHeading): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(list.title);
  for (const line of headingLines(list, heading)) sheet.addRow([line]);
  sheet.mergeCells(1, 1, 1, list.headers.length);
  sheet.addRow([]);
  sheet.addRow(list.headers).font = { bold: true };
  for (const row of [...list.rows, list.totals]) {
    const added = sheet.addRow(row.map((cell) => (typeof cell === 'object' ? new Date(`${cell.kst.replace(' ', 'T')}Z`) : cell)));
    row.forEach((cell, index) => {
      const target = added.getCell(index + 1);
      if (typeof cell === 'number') target.numFmt = '#,##0';
      else if (typeof cell === 'object') target.numFmt = 'yyyy-mm-dd hh:mm:ss';
    });
  }
  list.headers.forEach((_, index) => (sheet.getColumn(index + 1).width = 20));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const csvField = (cell: PortalCell): string => {
  const text = typeof cell === 'object' ? cell.kst : typeof cell === 'number' ? cell.toLocaleString('en-US') : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** As the portal's CSV download: CP949 without a BOM, CRLF lines, amounts with separators (quoted). */
function csvFile(list: PortalList, heading: PortalHeading): Buffer {
  const lines = [...headingLines(list, heading).map((line) => csvField(line)), '', ...[list.headers, ...list.rows, list.totals].map((row) => row.map(csvField).join(','))];
  return iconv.encode(`${lines.join('\r\n')}\r\n`, 'cp949');
}

export async function portalFile(list: PortalList, heading: PortalHeading, format: PortalFormat): Promise<Buffer> {
  return format === 'xlsx' ? xlsxFile(list, heading) : csvFile(list, heading);
}
