import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { readGatewayList } from '../src/reconciliation/file/read-gateway-list';

/**
 * What reading a portal's transaction list costs: GATEWAY_LIST_ROWS rows (100,000 by default)
 * as a CP949 CSV and as an .xlsx, written here and each read in a child process of its own so
 * the peak RSS printed is the reading's alone. Prints rows per second and the peak resident set.
 */
const ROWS = Number(process.env.GATEWAY_LIST_ROWS ?? 100_000);
const LIMITS = { maxBytes: 200_000_000, maxRows: ROWS + 10 };

const HEADER = ['PG거래번호', '주문번호', '승인번호', '거래금액', '취소금액', '거래일시', '거래상태', '결제수단'];
const row = (index: number): (string | number)[] => [
  `2611301400${String(index).padStart(10, '0')}`, `ORD-${index}`, String(30_000_000 + index), 1000 + (index % 50) * 100, 0,
  `2026-11-30 ${String(index % 24).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}:00`, '승인', '신용카드',
];

async function file(format: string): Promise<Buffer> {
  if (format === 'csv') {
    const lines = [HEADER.join(',')];
    for (let index = 0; index < ROWS; index += 1) lines.push(row(index).join(','));
    return iconv.encode(`${lines.join('\r\n')}\r\n`, 'cp949');
  }
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('거래내역');
  sheet.addRow(HEADER);
  for (let index = 0; index < ROWS; index += 1) sheet.addRow(row(index));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function measure(format: string, path: string): Promise<void> {
  return read(format, readFileSync(path));
}

async function read(format: string, bytes: Buffer): Promise<void> {
  const before = process.resourceUsage().maxRSS;
  const started = performance.now();
  const result = await readGatewayList(bytes, `list.${format}`, LIMITS);
  const seconds = (performance.now() - started) / 1000;
  if (!result.ok || result.rows.length !== ROWS) throw new Error(`the ${format} file did not read: ${JSON.stringify(result.ok ? result.rows.length : result.problems.slice(0, 3))}`);
  const peakMiB = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ format, rows: ROWS, bytes: bytes.length, seconds: Number(seconds.toFixed(2)), rowsPerSecond: Math.round(ROWS / seconds), peakRssMiB: Math.round(peakMiB), rssBeforeReadMiB: Math.round(before / 1024) }));
}

async function main(): Promise<void> {
  const [format, path] = process.argv.slice(2);
  if (format && path) return measure(format, path);
  const dir = mkdtempSync(join(tmpdir(), 'gateway-list-'));
  try {
    for (const each of ['csv', 'xlsx']) {
      const written = join(dir, `list.${each}`);
      writeFileSync(written, await file(each));
      execFileSync(process.execPath, [__filename, each, written], { stdio: 'inherit' });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
