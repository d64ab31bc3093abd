import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const SOFFICE = '/usr/bin/soffice';

/** LibreOffice Calc is on this machine: the suites that open a file as an accountant would run. */
export const hasSpreadsheetProgram = existsSync(SOFFICE);

/**
 * LibreOffice's CSV import options as an operator gets them from the import dialog without
 * touching anything but the character set: comma-separated, `"` as the quote, the code page, from
 * line 1, no column typed, no "quoted field as text", and "detect special numbers" on (the wider
 * reading, so an identifier that survives it survives the narrower one too). LibreOffice's own
 * numbers (rtl/textenc.h): 76 is UTF-8; 62 is Windows-949 (RTL_TEXTENCODING_MS_949), what the dialog
 * preselects on a Korean Windows.
 */
export const CSV_IMPORT = { utf8: 'CSV:44,34,76,1,,0,false,true', cp949: 'CSV:44,34,62,1,,0,false,true' } as const;

/**
 * The file converted by a real spreadsheet program: `soffice --headless --convert-to`, in a profile
 * of its own (a second soffice on the same profile would hand the job to the first and return at
 * once), waited for until it exits, its directory removed whatever happens.
 */
export async function convertWithSpreadsheet(file: Buffer, from: 'csv' | 'xlsx', to: 'xlsx' | 'pdf' | 'csv' | 'fods', infilter?: string): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'noti-soffice-'));
  try {
    const input = join(dir, `file.${from}`);
    writeFileSync(input, file);
    const args = [`-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`, '--headless', '--norestore'];
    if (infilter) args.push(`--infilter=${infilter}`);
    args.push('--convert-to', to, '--outdir', join(dir, 'out'), input);
    const child = spawn(SOFFICE, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: dir } });
    let said = '';
    child.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', resolve);
    });
    const output = join(dir, 'out', `file.${to}`);
    if (code !== 0 || !existsSync(output)) throw new Error(`soffice exited ${code} without a file: ${said}`);
    return readFileSync(output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
