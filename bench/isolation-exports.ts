import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { seconds, signIn, type ScenarioOutcome } from './isolation-scenarios';
import { readOne } from './store-sql';

/**
 * What an operator can download beside the acks: (d) the Orders list whole as .xlsx, (e) the
 * daily money over a ten-thousand-year range from the internal API and as the console's CSV, (f)
 * the Events list of the heaviest notifications. Each reads what it is sent as a browser would,
 * as fast as it comes.
 */

/** An operator (role `operator`, not the bootstrap admin) added by the CLI as an admin would, and signed in. */
export async function operatorCookie(dist: string, databaseUrl: string, adminUrl: string): Promise<string> {
  const name = `iso-operator-${Date.now()}`;
  const added = spawnSync(process.execPath, [join(dist, 'cli', 'receiver-cli.js'), 'operators', 'add', name, '--role', 'operator', '--json'], {
    env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: 'utf8',
  });
  if (added.status !== 0) throw new Error(`operators add exited ${String(added.status)}: ${added.stderr}`);
  const { token } = JSON.parse(added.stdout) as { token: string };
  return signIn(adminUrl, token);
}

interface Download {
  status: number;
  bytes: number;
  seconds: number;
}

async function download(url: string, headers: Record<string, string>): Promise<Download> {
  const started = performance.now();
  const response = await fetch(url, { headers, redirect: 'manual' });
  let bytes = 0;
  if (response.body) for await (const chunk of response.body) bytes += (chunk as Uint8Array).length;
  return { status: response.status, bytes, seconds: (performance.now() - started) / 1000 };
}

/** The rows the export's audit row counted (`…; 1000000 rows; complete`): the file's own count, as the server wrote it. */
async function auditedRows(databaseUrl: string, subject: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const row = await readOne<{ detail: string }>(databaseUrl,
      `SELECT detail FROM audit_log WHERE action = 'exported' AND subject = ? ORDER BY id DESC LIMIT 1`, [subject]);
    const counted = row ? /; (\d+) rows; (.*)$/.exec(row.detail) : null;
    if (counted) return `${Number(counted[1]).toLocaleString('en-US')} rows, ${counted[2]}`;
    if (Date.now() > deadline) return 'no audit row';
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const mb = (bytes: number) => (bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** (d) The Orders list, every order of the store, as one .xlsx, until it is whole (however long the probe runs). */
export async function exportOrders(adminUrl: string, cookie: string, databaseUrl: string, seeded: number): Promise<ScenarioOutcome> {
  const file = await download(`${adminUrl}/console/exports/orders.xlsx`, { cookie });
  if (file.status !== 200) return { bad: 1, note: `orders.xlsx answered ${file.status} after ${file.seconds.toFixed(1)} s` };
  const rows = await auditedRows(databaseUrl, 'orders.xlsx');
  return { bad: 0, note: `orders.xlsx of ${seeded.toLocaleString('en-US')} seeded orders and the probes': ${rows}, ${mb(file.bytes)} in ${file.seconds.toFixed(1)} s` };
}

/** Answers by status, `400 ×812`, and the mean time of one. */
function tally(name: string, answers: Download[]): string {
  const statuses = new Map<number, number>();
  for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  const mean = answers.reduce((sum, a) => sum + a.seconds, 0) / Math.max(1, answers.length) * 1000;
  return `${name} ${[...statuses].map(([status, n]) => `${status === 0 ? 'error' : status} ×${n}`).join(', ') || 'none'} (${mean.toFixed(1)} ms each)`;
}

/**
 * (e) The daily money from 0000-01-01 to 9999-12-31, from the internal API and as the console's
 * CSV, one after the other until the probe ends. A refusal of the range (400) is an answer; an
 * error or a 5xx is not.
 */
export async function summaryRange(apiUrl: string, apiToken: string, adminUrl: string, cookie: string, until: Promise<unknown>): Promise<ScenarioOutcome> {
  let done = false;
  void until.then(() => (done = true));
  const range = 'from=0000-01-01&to=9999-12-31';
  const api: Download[] = [];
  const csv: Download[] = [];
  const failed = () => ({ status: 0, bytes: 0, seconds: 0 });
  while (!done) {
    api.push(await download(`${apiUrl}/v1/summary/daily?${range}`, { authorization: `Bearer ${apiToken}` }).catch(failed));
    csv.push(await download(`${adminUrl}/console/exports/summary.csv?${range}`, { cookie }).catch(failed));
  }
  const bad = [...api, ...csv].filter((a) => a.status === 0 || a.status >= 500).length;
  return { bad, note: `${range}: ${tally('API', api)}; ${tally('summary.csv', csv)}` };
}

/** (f) The Events list of the heavy order (its notifications and the ledger's events of it) as .xlsx, again and again until the probe ends. */
export async function eventsExports(adminUrl: string, cookie: string, databaseUrl: string, shopOrderNo: string, until: Promise<unknown>): Promise<ScenarioOutcome> {
  let done = false;
  void until.then(() => (done = true));
  const started = performance.now();
  const files: Download[] = [];
  do {
    files.push(await download(`${adminUrl}/console/exports/events.xlsx?q=${encodeURIComponent(shopOrderNo)}`, { cookie }).catch(() => ({ status: 0, bytes: 0, seconds: 0 })));
  } while (!done);
  const bad = files.filter((f) => f.status !== 200).length;
  const each = files.reduce((sum, f) => sum + f.seconds, 0) / files.length;
  const rows = await auditedRows(databaseUrl, 'events.xlsx');
  return { bad, note: `${files.length} events.xlsx in ${seconds(started)} s (${each.toFixed(2)} s, ${mb(files[0]!.bytes)} each; the last: ${rows})` };
}
