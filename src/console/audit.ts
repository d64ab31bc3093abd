import type { ConsoleDeps } from './console-deps';

/** Every console action lands in the audit table and in the log, so it survives either being lost. */
export async function audit(
  deps: Pick<ConsoleDeps, 'store' | 'logger' | 'now'>,
  actor: string,
  action: string,
  subject: string | null,
  detail: string | null = null,
): Promise<void> {
  const entry = { at: deps.now().toISOString(), actor, action, subject, detail };
  deps.logger.info('console audit', { audit: entry });
  await deps.store.recordAudit(entry);
}
