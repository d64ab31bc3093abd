import { createLogger } from '../../src/observability/logger';
import { startSessionPrune } from '../../src/console/session-prune-schedule';
import { eventually } from '../helpers/eventually';
import { consoleSessions, startConsoleHarness, type ConsoleHarness } from './console-harness';

describe('expired console sessions are deleted on a schedule', () => {
  let h: ConsoleHarness;
  beforeAll(async () => {
    h = await startConsoleHarness({}, { relay: false });
  });
  afterAll(() => h.close());

  test('at start (then hourly) the expired rows go and the live ones stay', async () => {
    let clock = Date.parse('2026-11-25T00:00:00Z');
    const sessions = consoleSessions(h.receiver.store, undefined, () => clock);
    await sessions.create({ name: 'admin', role: 'admin' }, 'console-test-token-0123456789');
    clock += 31 * 60_000;
    const live = await sessions.create({ name: 'admin', role: 'admin' }, 'console-test-token-0123456789');
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', stream: new (await import('node:stream')).Writable({ write: (chunk, _e, done) => { lines.push(String(chunk)); done(); } }) });
    const schedule = startSessionPrune({ sessions, logger });
    try {
      await eventually(() => lines.some((line) => line.includes('expired console sessions deleted') && line.includes('"count":1')), 5_000, 'the prune log line');
      expect(await sessions.get(live.id)).toMatchObject({ operator: 'admin', role: 'admin' });
    } finally {
      schedule.stop();
    }
  });
});
