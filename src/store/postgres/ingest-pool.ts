import type { WriteName } from '../procedures';
import { createPool, type PostgresOptions } from './pool';
import { PostgresGroupCommit } from './group-commit';

/**
 * The gateway listener's own pool and group commit, on its thread. Migrations, locks and reads
 * stay with the process's full store; this commits acks and rejections only. The relay, wherever
 * it runs, is woken by the NOTIFY each commit that adds outbox rows sends with its COMMIT.
 */
// Loaded with import(), so pg loads only when PostgreSQL is used.
// ts-unused-exports:disable-next-line
export function openPostgresIngest(url: string, options: PostgresOptions): { write: (name: WriteName, args: unknown[]) => Promise<unknown>; close: () => Promise<void> } {
  const pool = createPool(url, options);
  const writer = new PostgresGroupCommit(pool, () => undefined);
  return {
    write: (name, args) => writer.write(name, args),
    async close() {
      await writer.flushed();
      await pool.end();
    },
  };
}
