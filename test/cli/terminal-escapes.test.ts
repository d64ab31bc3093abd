import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStores, type Stores } from '../../src/ledger/projector/open-stores';
import { paid } from '../store/ledger-entries';
import { runCliCaptured } from './seeded-receiver';

/** Clears the screen, retitles the window (OSC … BEL), a one-byte CSI, and a right-to-left override. */
const ORDER = 'ORD-\x1b[2J\x1b]0;pwned\x07-\x9b31m-\u202eevil';
const NOTE = 'refunded\x1b[8m hidden\x1b[0m\r\u2066by hand\u2069\x7f';
/** Anything a terminal would act on rather than show; a line break is the only control the CLI writes itself. */
const RAW_CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

describe('noti-receiver: control characters from the data are printed escaped, never sent to the terminal', () => {
  let dir: string;
  let stores: Stores;
  const cli = (...args: string[]) => runCliCaptured(args, { DATABASE_URL: `sqlite:${join(dir, 'receiver.db')}`, USER: 'ops-lead' });
  const expectSafe = (output: { stdout: string; stderr: string }) => {
    expect(output.stdout).not.toMatch(RAW_CONTROL);
    expect(output.stderr).not.toMatch(RAW_CONTROL);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'noti-cli-escapes-'));
    stores = await openStores(`sqlite:${join(dir, 'receiver.db')}`);
    // Two payments for one order: a duplicate_payment discrepancy names the order.
    await stores.store.record(paid(ORDER, 'PGESC1', 10000, 0));
    await stores.store.record(paid(ORDER, 'PGESC2', 10000, 1));
  });
  afterAll(async () => {
    await stores.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('events list, discrepancies list, a resolution and orders show, human and --json', async () => {
    const events = await cli('events', 'list');
    expect(events.code).toBe(0);
    expectSafe(events);
    expect(events.stdout).toContain('ORD-\\x1b[2J\\x1b]0;pwned\\x07-\\x9b31m-\\u202eevil');
    const eventsJson = await cli('events', 'list', '--json');
    expectSafe(eventsJson);
    // Still the same JSON: the escapes are JSON's own, read back as the characters stored.
    expect(eventsJson.json<Array<{ shopOrderNo: string | null }>>().some((e) => e.shopOrderNo === ORDER)).toBe(true);

    const listed = await cli('discrepancies', 'list');
    expectSafe(listed);
    expect(listed.stdout).toContain('ORD-\\x1b[2J');
    const [open] = (await cli('discrepancies', 'list', '--json')).json<Array<{ id: string; shopOrderNo: string }>>();
    expect(open!.shopOrderNo).toBe(ORDER);

    const resolved = await cli('discrepancies', 'resolve', open!.id, '--note', NOTE);
    expect(resolved.code).toBe(0);
    expectSafe(resolved);

    const shown = await cli('orders', 'show', ORDER);
    expect(shown.code).toBe(0);
    expectSafe(shown);
    expect(shown.stdout).toContain('refunded\\x1b[8m hidden\\x1b[0m\\x0d\\u2066by hand\\u2069\\x7f');
    const shownJson = await cli('orders', 'show', ORDER, '--json');
    expectSafe(shownJson);
    expect(shownJson.json<{ discrepancies: Array<{ note: string }> }>().discrepancies[0]!.note).toBe(NOTE);
    expectSafe(await cli('discrepancies', 'list', '--all'));
  });

  test('the built command, writing to a real pipe, escapes them too', () => {
    const cli = join(__dirname, '..', '..', 'dist', 'cli', 'receiver-cli.js');
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build (npm test does)`);
    for (const args of [['events', 'list'], ['discrepancies', 'list', '--all'], ['orders', 'show', ORDER], ['--json', 'orders', 'show', ORDER]]) {
      const run = spawnSync(process.execPath, [cli, ...args, '--database-url', `sqlite:${join(dir, 'receiver.db')}`], { encoding: 'utf8' });
      expect(run.status).toBe(0);
      expectSafe(run);
      expect(run.stdout).toContain(args[0] === '--json' ? 'ORD-\\u001b[2J' : 'ORD-\\x1b[2J');
    }
  });

  test('error messages and usage errors that quote an argument', async () => {
    const unknown = await cli('orders', 'show', 'NO-\x1b[2J\x07');
    expect(unknown.code).toBe(1);
    expectSafe(unknown);
    const event = await cli('events', 'show', 'evt_\x1b]0;x\x07');
    expect(event.code).toBe(1);
    expectSafe(event);
    expect(event.stderr).toContain('no event evt_\\x1b]0;x\\x07');
    const usage = await cli('events', 'list', '--status', '\x1b[31mdead');
    expect(usage.code).toBe(2);
    expectSafe(usage);
  });
});
