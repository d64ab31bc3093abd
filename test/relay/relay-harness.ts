import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NormalizedEvent } from '../../src/notifications/normalized-event';
import { createLogger, type Logger } from '../../src/observability/logger';
import type { Publisher } from '../../src/publishers/publisher';
import type { BackoffOptions } from '../../src/backoff';
import { startRelay, type Relay } from '../../src/relay/relay';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store';
import type { Store } from '../../src/store/store';
import { eventually } from '../publishers/broker-env';
import { entryFor, sampleEvent } from '../helpers/stored-events';

/** A real SQLite store in a temp dir and the real relay, with backoff small enough for a test. */
export class RelayHarness {
  readonly store: Store;
  readonly relay: Relay;
  private readonly dir: string;

  constructor(readonly publisher: Publisher, options: { logger?: Logger; backoff?: BackoffOptions } = {}) {
    this.dir = mkdtempSync(join(tmpdir(), 'noti-relay-'));
    this.store = openSqliteStore(join(this.dir, 'receiver.db'));
    this.relay = startRelay({
      store: this.store,
      publisher,
      logger: options.logger ?? createLogger({ level: 'error', silent: true }),
      backoff: options.backoff ?? { baseMs: 20, maxMs: 200 },
      pollIntervalMs: 100,
    });
  }

  /** Stores `count` new events the way the HTTP route does; each must be accepted even while the queue is down. */
  async record(count: number): Promise<NormalizedEvent[]> {
    const events: NormalizedEvent[] = [];
    for (let i = 0; i < count; i += 1) {
      const event = sampleEvent({ notiType: (['10', '20', '30', '40'] as const)[i % 4] });
      const result = await this.store.record(entryFor(event));
      if (result.outcome !== 'accepted') throw new Error(`event ${event.id} was ${result.outcome}, not accepted`);
      events.push(event);
    }
    return events;
  }

  /** Waits until the relay has failed at least once against the down broker, with events waiting. */
  async waitForBacklog(): Promise<void> {
    await eventually(async () => {
      const backlog = await this.store.backlog(Date.now());
      return backlog.pending > 0 && this.relay.state().lastError !== null ? true : undefined;
    }, 15_000, 'the relay to fail against the down broker');
  }

  async waitForDrain(timeoutMs = 20_000): Promise<void> {
    await eventually(async () => ((await this.store.backlog(Date.now())).pending === 0 ? true : undefined), timeoutMs, 'the outbox to drain');
  }

  async close(): Promise<void> {
    await this.relay.stop(0);
    await this.publisher.close();
    await this.store.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * At-least-once with no gap and in order: the first sighting of each id follows the recorded
 * order exactly, and nothing recorded is missing. A repeat is allowed only as a retry of an
 * event already seen (a lost confirm), never as a jump back behind a later event's first sighting.
 */
export function expectInOrderWithoutGaps(receivedIds: string[], recorded: NormalizedEvent[]): void {
  const firstSightings = [...new Set(receivedIds)];
  expect(firstSightings).toEqual(recorded.map((event) => event.id));
}
