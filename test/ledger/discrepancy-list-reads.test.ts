import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreDriver } from '../../src/store/driver';
import * as ledgerStoreModule from '../../src/ledger/projector/ledger-store';
import { kstStamp } from '../../src/notifications/kst-date';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { runCliCaptured } from '../cli/seeded-receiver';
import { HOST, ORIGIN } from '../console/console-harness';
import { startLedgerConsole, type LedgerConsole } from '../console/ledger-console-harness';
import { createTestSchema, describePostgres } from '../store/pg-test-database';

/**
 * The console's Discrepancies page and the CLI's `discrepancies list` show each discrepancy's money
 * in its order's currency: the list's query brings the currency, so neither reads the orders, and
 * a page of N discrepancies costs the same reads as a page of one.
 */

/** Every read each ledger store sends its driver, by store (in the order they were opened) and procedure. */
const reads: Array<{ store: number; name: string }> = [];
let opened = 0;
const createLedgerStore = ledgerStoreModule.createLedgerStore;
beforeAll(() => {
  jest.spyOn(ledgerStoreModule, 'createLedgerStore').mockImplementation((driver, ...rest) => {
    const store = opened++;
    const counted = new Proxy(driver, {
      get(target, property) {
        if (property === 'read') return (name: string, args: unknown[]) => (reads.push({ store, name }), target.read(name as never, args));
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    }) as StoreDriver;
    return createLedgerStore(counted, ...rest);
  });
});
afterAll(() => jest.restoreAllMocks());

const MALL = 'T0001234';
/** A listed discrepancy's fields, in the internal API and the CLI's --json alike. */
const LISTED_KEYS = ['details', 'eventIds', 'id', 'kind', 'mallId', 'note', 'openedAt', 'resolvedAt', 'resolvedBy', 'shopOrderNo'];
let serial = 0;
const orderNo = (tag: string) => `${tag}-${Date.now()}-${++serial}`;
const pay = (shopOrderNo: string, amount: number) =>
  approvalNotification({ mallId: MALL, shopOrderNo, pgCno: `PGR${++serial}`, amount: String(amount), transactionDate: kstStamp(new Date()) });
/** A page's text as a person reads it: tags dropped, entities decoded, spaces folded. */
const readable = (page: string) => page.replace(/<\/t[dh]>|<\/a>/g, ' ').replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/&#39;/g, "'").replace(/\s+/g, ' ');

function discrepancyListReads(open: () => Promise<{ h: LedgerConsole; databaseUrl: string; cleanup(): Promise<void> }>): void {
  let h: LedgerConsole;
  let databaseUrl: string;
  let cleanup: () => Promise<void>;
  let consoleStore: number;
  beforeEach(async () => {
    const before = opened;
    ({ h, databaseUrl, cleanup } = await open());
    expect(opened).toBe(before + 1);
    consoleStore = before;
  });
  afterEach(async () => cleanup());

  /** Orders with one open discrepancy each: `usd` and `krw` paid other than their expectation, `none` paid twice without one. */
  async function openDiscrepancies(counts: { usd: number; krw: number; none: number }): Promise<{ usd: string[]; krw: string[]; none: string[] }> {
    const made = { usd: [] as string[], krw: [] as string[], none: [] as string[] };
    for (const [kind, currency, amount] of [['usd', 'USD', 1203], ['krw', 'KRW', 12000]] as const) {
      for (let i = 0; i < counts[kind]; i++) {
        const shopOrderNo = orderNo(`ORD-${currency}`);
        await h.ledgerApp.api.put(`/v1/orders/${MALL}/${shopOrderNo}/expectation`, { amount, currency, method: 'card', expiresAt: null }).expect(200);
        await h.ledgerApp.notify(pay(shopOrderNo, 1200)).expect(200);
        made[kind].push(shopOrderNo);
      }
    }
    for (let i = 0; i < counts.none; i++) {
      const shopOrderNo = orderNo('ORD-NONE');
      await h.ledgerApp.notify(pay(shopOrderNo, 10000)).expect(200);
      await h.ledgerApp.notify(pay(shopOrderNo, 10000)).expect(200);
      made.none.push(shopOrderNo);
    }
    await h.ledgerApp.stores.ledger.caughtUp(10_000);
    return made;
  }

  /** The reads `work` makes of the ledger stores `which` picks, by procedure name, sorted. */
  async function readsOf(work: () => Promise<unknown>, which: (store: number) => boolean): Promise<string[]> {
    await h.ledgerApp.stores.ledger.caughtUp(10_000);
    const from = reads.length;
    await work();
    return reads.slice(from).filter((read) => which(read.store)).map((read) => read.name).sort();
  }

  test("the Discrepancies page reads the same for 3 discrepancies as for 12 (no order read), each showing money in its order's currency, in either language", async () => {
    const { agent, csrf } = await h.signIn('kim', 'viewer');
    const page = () => agent.get('/console/discrepancies').set('Host', HOST).expect(200);
    const first = await openDiscrepancies({ usd: 1, krw: 1, none: 1 });
    // The two lists (each waiting for the projector's position once) and the open count.
    const constant = ['ledgerPosition', 'ledgerPosition', 'listDiscrepancies', 'listDiscrepancies', 'openDiscrepancyCounts'];
    expect(await readsOf(page, (store) => store === consoleStore)).toEqual(constant);
    await openDiscrepancies({ usd: 4, krw: 4, none: 1 });
    expect(await readsOf(page, (store) => store === consoleStore)).toEqual(constant);

    const rowOf = (text: string, shopOrderNo: string) => readable(text.split('<tr data-discrepancy=').find((row) => row.includes(`<bdi>${shopOrderNo}</bdi>`))!.split('</tr>')[0]!);
    const english = (await page()).text;
    expect(rowOf(english, first.usd[0]!)).toContain('$12.03');
    expect(rowOf(english, first.usd[0]!)).toContain('$12.00');
    expect(rowOf(english, first.krw[0]!)).toContain('₩12,000');
    expect(rowOf(english, first.krw[0]!)).toContain('₩1,200');
    // No expectation: the mall's default currency (KRW).
    expect(rowOf(english, first.none[0]!)).toContain('₩10,000');

    await agent.post('/console/locale').set('Host', HOST).set('Origin', ORIGIN).type('form').send({ _csrf: csrf, locale: 'ko', back: '/console/discrepancies' }).expect(303);
    const korean = (await page()).text;
    expect(rowOf(korean, first.usd[0]!)).toContain('US$12.03');
    expect(rowOf(korean, first.krw[0]!)).toContain('12,000원');
    expect(rowOf(korean, first.none[0]!)).toContain('10,000원');

    // The internal API's list keeps its shape: the discrepancies as listed, no currency added.
    const listed = (await h.ledgerApp.api.get('/v1/discrepancies?open=true&limit=100').expect(200)).body as { discrepancies: Array<Record<string, unknown>> };
    expect(listed.discrepancies).toHaveLength(12);
    for (const d of listed.discrepancies) expect(Object.keys(d).sort()).toEqual(LISTED_KEYS);
  });

  test("the CLI's discrepancies list reads the same for 3 discrepancies as for 12 (no order read), amounts in each order's currency, the default where no expectation names one", async () => {
    const cli = async (...args: string[]) => {
      const cliStores = opened;
      let answer!: Awaited<ReturnType<typeof runCliCaptured>>;
      const made = await readsOf(async () => {
        answer = await runCliCaptured(args, { DATABASE_URL: databaseUrl, LEDGER_DEFAULT_CURRENCY: 'USD' });
      }, (store) => store >= cliStores);
      expect(opened).toBe(cliStores + 1);
      expect(answer).toMatchObject({ code: 0, stderr: expect.stringMatching(/^noti-receiver: reading (sqlite|postgres):\S+ \(store [0-9a-f]{8}\)\n$/) });
      return { ...answer, reads: made };
    };
    const first = await openDiscrepancies({ usd: 1, krw: 1, none: 1 });
    const few = await cli('discrepancies', 'list');
    expect(few.reads).toEqual(['ledgerPosition', 'listDiscrepancies']);
    await openDiscrepancies({ usd: 4, krw: 4, none: 1 });
    const many = await cli('discrepancies', 'list');
    expect(many.reads).toEqual(['ledgerPosition', 'listDiscrepancies']);
    expect(many.stdout.trimEnd().split('\n').slice(2)).toHaveLength(12);

    const line = (shopOrderNo: string) => many.stdout.split('\n').find((l) => l.includes(` ${shopOrderNo} `))!;
    expect(line(first.usd[0]!)).toMatch(/expected \$12\.03, notified \$12\.00/);
    expect(line(first.krw[0]!)).toMatch(/expected ₩12,000, notified ₩1,200/);
    // LEDGER_DEFAULT_CURRENCY where the order has no expectation: 10000 minor units of USD.
    expect(line(first.none[0]!)).toMatch(/largestPayment \$100\.00/);

    // --json keeps its shape: the discrepancies as listed, no currency added.
    const json = (await cli('discrepancies', 'list', '--json')).json<Array<Record<string, unknown>>>();
    expect(json).toHaveLength(12);
    for (const listed of json) expect(Object.keys(listed).sort()).toEqual(LISTED_KEYS);
  });
}

describe('the discrepancy lists read no order for its currency, on SQLite', () => {
  discrepancyListReads(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'noti-discrepancy-reads-'));
    const databaseUrl = `sqlite:${join(dir, 'receiver.db')}`;
    const h = await startLedgerConsole({ databaseUrl });
    return { h, databaseUrl, cleanup: async () => { await h.close(); rmSync(dir, { recursive: true, force: true }); } };
  });
});

describePostgres('the discrepancy lists read no order for its currency, on PostgreSQL', () => {
  discrepancyListReads(async () => {
    const schema = await createTestSchema();
    const h = await startLedgerConsole({ databaseUrl: schema.url });
    return { h, databaseUrl: schema.url, cleanup: async () => { await h.close(); await schema.drop(); } };
  });
});
