import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Client } from 'pg';
import { taskCpuNs } from './thread-cpu';

/**
 * The PostgreSQL server's side of a measurement, for a server on this machine: the CPU of the
 * backends serving this process's connections (their schedstat), and the size of the ledger
 * tables' TOAST, where a record or checkpoint too large for its row is kept.
 */
export async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** The local ports of this process's TCP connections to port 5432 (its pg clients). */
function ownPostgresPorts(): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // Closed meanwhile.
    }
  }
  const ports: number[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      if (parseInt(cols[2]!.split(':')[1]!, 16) === 5432 && inodes.has(cols[9]!)) ports.push(parseInt(cols[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

/** The server processes serving this process's connections now (the asking one's excluded). */
export function backendPids(url: string): Promise<number[]> {
  const ports = ownPostgresPorts();
  return withClient(url, async (client) =>
    (await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE client_port = ANY($1::int[]) AND pid <> pg_backend_pid()', [ports])).rows.map((r) => r.pid));
}

/** Microseconds those backends have run on a CPU. */
export function backendsCpuUs(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => sum + taskCpuNs(`/proc/${pid}`), 0) / 1000;
}

/** Bytes of TOAST (with its index) of the ledger's tables in the URL's schema. */
export function ledgerToastBytes(url: string): Promise<number> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ bytes: string | null }>(
      `SELECT sum(pg_total_relation_size(c.reltoastrelid)) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname LIKE 'ledger%' AND c.reltoastrelid <> 0`);
    return Number(rows[0]?.bytes ?? 0);
  });
}
