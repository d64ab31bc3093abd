import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnReceiver, type SpawnedReceiver } from '../helpers/spawn-receiver';
import { DEV_GATEWAY_IP } from '../helpers/test-receiver';

export interface TracedReceiver {
  receiver: SpawnedReceiver;
  dir: string;
  post(body: unknown): Promise<number>;
  close(): Promise<void>;
}

/**
 * The built service with tracing on, configured by the standard variables only: the SDK's own
 * OTLP/HTTP exporter sends to `collectorUrl`. (A process of its own, also because the exporter
 * loads node's http module by a dynamic import that jest's module sandbox cannot run.)
 */
export async function startTracedReceiver(collectorUrl: string, env: Record<string, string>): Promise<TracedReceiver> {
  const dir = mkdtempSync(join(tmpdir(), 'noti-traced-'));
  const receiver = await spawnReceiver(dir, {
    DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`,
    OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
    OTEL_SERVICE_NAME: 'noti-receiver-test',
    // The batch span processor exports every 50 ms instead of every 5 s: the test waits less.
    OTEL_BSP_SCHEDULE_DELAY: '50',
    ...env,
  });
  return {
    receiver,
    dir,
    async post(body) {
      const answer = await fetch(receiver.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Forwarded-For': DEV_GATEWAY_IP },
        body: JSON.stringify(body),
      });
      await answer.arrayBuffer();
      return answer.status;
    },
    async close() {
      if (receiver.child.exitCode === null) {
        receiver.child.kill('SIGTERM');
        await receiver.exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
