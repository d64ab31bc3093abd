import { DEFAULT_LEDGER_SETTINGS } from '../../../src/config/ledger-settings';
import { computeOrderRecord } from '../../../src/ledger/fold/compute-order-record';
import type { LedgerFact } from '../../../src/ledger/fold/ledger-facts';
import { orderKeyText } from '../../../src/ledger/fold/order-key';
import type { OrderRecord } from '../../../src/ledger/fold/order-record';
import { FoldCache } from '../../../src/ledger/projection/fold-cache';
import { storedRecord, unreadOrder, type LoadedOrder, type OrderFact } from '../../../src/ledger/projection/loaded-order';
import type { OrderChanges } from '../../../src/ledger/projection/order-changes';
import { needsFacts } from '../../../src/ledger/projection/order-computation';
import { projectOrders } from '../../../src/ledger/projection/project-orders';
import { withItemWrites } from '../../../src/ledger/projection/record-items';
import { lateListings, notifiedSpans, unplacedLookups, type UnplacedRow } from '../../../src/ledger/projection/late-listings';
import type { ListingImport } from '../../../src/ledger/fold/listing-fact';
import { listingFacts } from '../../../src/reconciliation/matching/listing-facts';
import { approval, expectation, ORDER, partialCancel, PG, minute } from '../ledger-fixtures';

/**
 * The projection as a specification, with no database: given the facts an order's store already
 * holds (each projected in a batch of its own, and what it changed kept as a store would keep it),
 * when a batch brings new facts, then these changes — facts, records, discrepancy rows,
 * checkpoints, the day's money and events — as plain data.
 */
const settings = DEFAULT_LEDGER_SETTINGS;

/** What a store keeps of one order, applied from the projection's changes the way the SQL writes them. */
class StoredOrder {
  entry: LoadedOrder = unreadOrder(ORDER);

  apply(changes: OrderChanges): void {
    const key = orderKeyText(ORDER);
    for (const { fact } of changes.facts) this.entry.facts.push(fact);
    for (const write of changes.records) if (orderKeyText(write.order) === key) Object.assign(this.entry, { exists: true, storedJson: write.header, storedItems: withItemWrites(this.entry.storedItems, write.items), sweepAt: write.sweepAt, summaryDay: write.summaryDay });
    for (const { settings: key, lastMoment, version } of changes.checkpoints) this.entry.foldPosition = { settings: key, lastMoment, version };
    if (changes.forgotten.length > 0) this.entry.foldPosition = null;
  }

  /** As a batch loads it: a fresh copy, its facts read only when its fold cannot go on from the cache (`needsFacts`). */
  loaded(facts: readonly LedgerFact[], cache: FoldCache | null): Map<string, LoadedOrder> {
    const earliest = Math.min(...facts.map((f) => Date.parse(f.recordedAt)), Number.MAX_SAFE_INTEGER);
    const read = needsFacts(this.entry, earliest, settings, cache) || !this.entry.exists;
    const copy: LoadedOrder = { ...this.entry, facts: read ? [...this.entry.facts] : [], factsRead: read, failedInputs: [...this.entry.failedInputs] };
    return new Map([[orderKeyText(ORDER), copy]]);
  }
}

const batchTime = (facts: readonly LedgerFact[]) => facts.reduce((latest, f) => (f.recordedAt > latest ? f.recordedAt : latest), '');

function project(store: StoredOrder, facts: readonly LedgerFact[], cache: FoldCache | null = null): OrderChanges {
  const changes = projectOrders(store.loaded(facts, cache), facts.map((fact): OrderFact => ({ order: ORDER, fact })), { now: batchTime(facts) || minute(0), settings }, cache);
  store.apply(changes);
  return changes;
}

function given(...history: LedgerFact[][]) {
  const store = new StoredOrder();
  for (const batch of history) project(store, batch);
  return {
    store,
    when: (...facts: LedgerFact[]) => ({ then: (check: (changes: OrderChanges) => void) => check(project(store, facts)) }),
  };
}

const record = (changes: OrderChanges): OrderRecord => {
  expect(changes.records).toHaveLength(1);
  return changes.records[0]!.record!;
};
const eventTypes = (changes: OrderChanges) => changes.events.map((e) => e.event.type);

const paid = approval({ pgCno: PG.card, amount: 30000, at: 1 });
const cancel = (n: number, amount: number, at: number) => partialCancel({ pgCno: PG.card, cancelPgCno: `2611211200000000${String(100 + n).padStart(4, '0')}`, cancelAmount: amount, at });

describe('the ledger projection: given what the store holds, when new facts arrive, then these changes', () => {
  it("a new order's first payment: its fact, its record, the day's money from nothing, and its status event", () => {
    given().when(expectation({ received: 0 }), paid).then((changes) => {
      expect(changes.facts.map((f) => f.fact.id)).toEqual([expect.stringMatching(/^exp_/), paid.id]);
      expect(record(changes)).toMatchObject({ status: 'paid', approved: 30000, remaining: 30000 });
      // 2026-11-21 in KST: the payment's day gains the order, and its money and status count there.
      expect(changes.summary).toEqual([expect.objectContaining({ statusDay: '2026-11-21', gainedDays: ['2026-11-21'] })]);
      expect(changes.summary[0]!.deltas).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'payment', count: 1, amount: 30000 })]));
      expect(changes.records[0]!.summaryDay).toBe('2026-11-21');
      expect(eventTypes(changes)).toEqual(['order.status_changed', 'order.status_changed']);
      expect(changes.events.every((e) => e.pgCno === PG.card && e.mallId === ORDER.mallId)).toBe(true);
    });
  });

  it('the same notification delivered again: nothing to store, nothing to send', () => {
    given([expectation({ received: 0 })], [paid]).when(paid).then((changes) => {
      expect(changes).toMatchObject({ facts: [], records: [], discrepancies: [], gone: [], summary: [], events: [] });
      expect(changes.results).toEqual([expect.objectContaining({ changed: false, error: null })]);
    });
  });

  it("a partial cancel: the record with what is left, the day's money moved by the cancel alone, one status change", () => {
    given([expectation({ received: 0 })], [paid]).when(cancel(1, 1000, 5)).then((changes) => {
      expect(record(changes)).toMatchObject({ status: 'partially_cancelled', cancelled: 1000, remaining: 29000 });
      const money = changes.summary[0]!.deltas.filter((d) => d.kind !== 'status');
      expect(money).toEqual([expect.objectContaining({ kind: 'cancel', count: 1, amount: 1000 })]);
      // The cancel's day, which the order is listed on already: the list keeps it once.
      expect(changes.summary[0]!.gainedDays).toEqual(['2026-11-21']);
      expect(changes.events.map((e) => e.event)).toEqual([expect.objectContaining({ type: 'order.status_changed', from: 'paid', to: 'partially_cancelled' })]);
    });
  });

  it('two inputs in one batch each tell their change, in the order they were stored', () => {
    given([expectation({ received: 0 })]).when(cancel(1, 30000, 9), paid).then((changes) => {
      expect(record(changes)).toMatchObject({ status: 'cancelled', remaining: 0 });
      expect(changes.events.map((e) => ('to' in e.event ? e.event.to : null))).toEqual(['paid', 'cancelled']);
    });
  });

  it('a second payment for the order: a discrepancy row and its event, before the status change', () => {
    given([expectation({ received: 0 })], [paid]).when(approval({ pgCno: PG.second, amount: 30000, at: 3 })).then((changes) => {
      expect(changes.discrepancies.map((d) => d.discrepancy.kind)).toEqual(['duplicate_payment']);
      expect(eventTypes(changes)).toEqual(['ledger.discrepancy', 'order.status_changed']);
      expect(changes.gone).toEqual([]);
    });
  });

  it('an input that does not read marks its order ledger_error; repaired, it is applied and its kept row goes', () => {
    const held = given([expectation({ received: 0 })], [paid]);
    held.store.entry.failedInputs.push({ seq: 7, factJson: '{"kind":"cancellation"', error: 'Unexpected end of JSON input' });
    const broken = project(held.store, [cancel(1, 1000, 5)]);
    expect(record(broken)).toMatchObject({ status: 'ledger_error' });
    expect(broken.applied).toEqual([]);
    held.store.entry.failedInputs = [{ seq: 7, factJson: JSON.stringify(cancel(2, 2000, 6)), error: 'repaired' }];
    const repaired = project(held.store, []);
    expect(repaired.applied).toEqual([7]);
    expect(record(repaired)).toMatchObject({ status: 'partially_cancelled', cancelled: 3000 });
  });

  it("a long order keeps a fold position, each write under a new token, and the projector's cache holds its state under the stored one", () => {
    const cache = new FoldCache();
    const store = new StoredOrder();
    project(store, [expectation({ received: 0 }), paid], cache);
    const tokens: string[] = [];
    for (let n = 1; n <= 9; n += 1) tokens.push(...project(store, [cancel(n, 100, 1 + n)], cache).checkpoints.map((c) => c.version));
    expect(tokens.length).toBeGreaterThan(1);
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(store.entry.foldPosition).toMatchObject({ settings: expect.stringMatching(/grace=/), lastMoment: Date.parse(minute(10)), version: tokens.at(-1) });
    expect(cache.holds(ORDER, tokens.at(-1)!)).toBe(true);
    // Without reading the facts (the kept state goes on), the record is the one a replay of every fact gives.
    expect(storedRecord(store.entry)).toEqual(computeOrderRecord(ORDER, store.entry.facts, { now: minute(10), settings }).record);
  });

  it("a state kept under another token than the store's (another writer moved the order) is not gone on from: the facts are read and replayed", () => {
    const cache = new FoldCache();
    const store = new StoredOrder();
    project(store, [expectation({ received: 0 }), paid], cache);
    for (let n = 1; n <= 8; n += 1) project(store, [cancel(n, 100, 1 + n)], cache);
    const mine = store.entry.foldPosition!.version;
    // Another replica's projector stored its own write of the order, with a cancel this one never folded.
    const other = new StoredOrder();
    other.entry = { ...store.entry, facts: [...store.entry.facts] };
    project(other, [cancel(20, 500, 20)]);
    store.entry = other.entry;
    expect(store.entry.foldPosition!.version).not.toBe(mine);
    expect(needsFacts(store.entry, Date.parse(minute(21)), settings, cache)).toBe(true);
    const next = project(store, [cancel(21, 100, 21)], cache);
    expect(record(next)).toMatchObject({ cancelled: 800 + 500 + 100 });
  });

  it('batches of one input each send the same events, and end at the same record, as one batch of them all', () => {
    const facts = [expectation({ received: 0 }), paid, cancel(1, 1000, 2), cancel(2, 2000, 3), approval({ pgCno: PG.second, amount: 5000, at: 4 }), cancel(3, 27000, 5)];
    const oneByOne = new StoredOrder();
    const told = facts.flatMap((fact) => project(oneByOne, [fact]).events.map((e) => e.event.id));
    const together = new StoredOrder();
    const all = project(together, facts);
    expect(all.events.map((e) => e.event.id)).toEqual(told);
    expect(JSON.stringify(storedRecord(together.entry))).toBe(JSON.stringify(storedRecord(oneByOne.entry)));
  });
});

/** The batch as the projector computes it: the late listing facts decided on the loaded orders, then projected with the batch's own. */
function projectWithCoverage(store: StoredOrder, facts: readonly LedgerFact[], imports: readonly ListingImport[], cache: FoldCache | null = null, unplaced: readonly UnplacedRow[] = []) {
  const loaded = store.loaded(facts, cache);
  const batch = facts.map((fact): OrderFact => ({ order: ORDER, fact }));
  const decided = lateListings(loaded, batch, imports, unplaced);
  const changes = projectOrders(loaded, [...batch, ...decided.facts], { now: batchTime(facts), settings }, cache);
  store.apply(changes);
  return { decided, changes };
}

describe('a notification that arrives after a list of its day was imported', () => {
  /** A list of the gateway's imported 10 minutes in, covering the fixtures' day (2026-11-21 KST). */
  const list: ListingImport = { id: 'gwi_day', mallId: ORDER.mallId, firstDay: '2026-11-21', lastDay: '2026-11-21', at: minute(10), listsCancels: false };
  const late = approval({ pgCno: PG.card, amount: 30000, at: 1, received: 20 });


  it("gains the import's fact with no rows, the very fact the import makes for an order it does not list, and not_in_gateway_list opens", () => {
    const store = new StoredOrder();
    const { decided, changes } = projectWithCoverage(store, [late], [list]);
    const imports = listingFacts(list, [], [ORDER]);
    expect(decided).toEqual({ facts: [{ order: ORDER, fact: imports[0]!.fact }], placed: [], unread: [] });
    expect(changes.facts.map((f) => f.fact.kind)).toEqual(['notification', 'gateway_listing']);
    expect(changes.discrepancies.map((d) => d.discrepancy.kind)).toEqual(['not_in_gateway_list']);
    expect(changes.discrepancies[0]!.discrepancy.details).toMatchObject({ pgCno: PG.card, day: '2026-11-21', amount: 30000 });
    // The import's own fact for the order, arriving after: the same id, nothing to store, nothing changes.
    const again = project(store, [imports[0]!.fact]);
    expect(again).toMatchObject({ facts: [], records: [], discrepancies: [], events: [] });
  });

  it('the latest import covering the day is the one: an earlier one the order holds does not stand for it', () => {
    const earlier: ListingImport = { ...list, id: 'gwi_earlier', at: minute(5) };
    const store = new StoredOrder();
    project(store, [listingFacts(earlier, [], [ORDER])[0]!.fact]);
    const { decided } = projectWithCoverage(store, [late], [list, earlier]);
    expect(decided.facts.map((f) => (f.fact.kind === 'gateway_listing' ? f.fact.importId : null))).toEqual([list.id]);
  });

  it("an order that holds the import's fact already, or brings it in the same batch, gains nothing", () => {
    const listed = listingFacts(list, [], [ORDER])[0]!.fact;
    const holding = new StoredOrder();
    project(holding, [listed]);
    expect(projectWithCoverage(holding, [late], [list]).decided).toEqual({ facts: [], placed: [], unread: [] });
    expect(projectWithCoverage(new StoredOrder(), [listed, late], [list]).decided).toEqual({ facts: [], placed: [], unread: [] });
  });

  it('a day no import covers, another mall\'s import, or a batch of no notification adds nothing', () => {
    const otherDay: ListingImport = { ...list, firstDay: '2026-11-22', lastDay: '2026-11-23' };
    const otherMall: ListingImport = { ...list, mallId: 'T0009999' };
    const { decided, changes } = projectWithCoverage(new StoredOrder(), [late], [otherDay, otherMall]);
    expect(decided).toEqual({ facts: [], placed: [], unread: [] });
    expect(changes.discrepancies).toEqual([]);
    expect(lateListings(new StoredOrder().loaded([], null), [{ order: ORDER, fact: expectation({ received: 0 }) }], [list])).toEqual({ facts: [], placed: [], unread: [] });
  });

  it("an order whose fold goes on from a kept state is named, to have its facts read first; read, it is decided", () => {
    const cache = new FoldCache();
    const store = new StoredOrder();
    project(store, [expectation({ received: 0 }), approval({ pgCno: PG.second, amount: 1000, at: -1440, received: 0 })], cache);
    for (let n = 1; n <= 8; n += 1) project(store, [partialCancel({ pgCno: PG.second, cancelPgCno: `CX-${n}`, cancelAmount: 10, at: -1440 + n, received: n })], cache);
    const loaded = store.loaded([late], cache);
    expect(loaded.get(orderKeyText(ORDER))!.factsRead).toBe(false);
    const batch = [{ order: ORDER, fact: late }];
    expect(lateListings(loaded, batch, [list])).toEqual({ facts: [], placed: [], unread: [ORDER] });
    loaded.get(orderKeyText(ORDER))!.facts.push(...store.entry.facts);
    loaded.get(orderKeyText(ORDER))!.factsRead = true;
    const decided = lateListings(loaded, batch, [list]);
    expect(decided.facts).toHaveLength(1);
    // Its fact is stored before the order's last moment: the order is replayed from the facts read, not marked.
    const changes = projectOrders(loaded, [...batch, ...decided.facts], { now: batchTime([late]), settings }, cache);
    expect(changes.results[0]!.error).toBeNull();
    // The day before holds the order's first payment, which no list covers; the late one is a second payment too.
    const unlisted = changes.discrepancies.filter((d) => d.discrepancy.kind === 'not_in_gateway_list');
    expect(unlisted.map((d) => d.discrepancy.details.pgCno)).toEqual([PG.card]);
  });

  it('the days the store reads lists for: one span per mall, of its notifications alone', () => {
    const nextDay = approval({ pgCno: PG.second, amount: 1000, at: 1440 });
    const spans = notifiedSpans([{ order: ORDER, fact: late }, { order: ORDER, fact: nextDay }, { order: ORDER, fact: expectation({ received: 5000 }) }]);
    expect(spans).toEqual([{ mallId: ORDER.mallId, firstDay: '2026-11-21', lastDay: '2026-11-22' }]);
  });
});

describe("a list's row that names no order, placed when its payment's notification arrives after the import", () => {
  const list: ListingImport = { id: 'gwi_day', mallId: ORDER.mallId, firstDay: '2026-11-21', lastDay: '2026-11-21', at: minute(10), listsCancels: false };
  const first = approval({ pgCno: PG.card, amount: 30000, at: 1, received: 1 });
  const listedRow = (line: number, pgCno: string, amount: number, at: number, kind: 'payment' | 'cancel' = 'payment', cancelPgCno: string | null = null) =>
    ({ line, kind, pgCno, cancelPgCno, amount, status: kind === 'cancel' ? 'cancelled' as const : 'approved' as const, at: minute(at) });
  /** The import's fact for the order: its first payment's row, which the file placed. */
  const imported = listingFacts(list, [{ order: ORDER, row: { ...listedRow(3, PG.card, 30000, 1), shopOrderNo: null, approvalNo: null, cancelledAmount: null, statusText: '승인', method: null } }], [])[0]!.fact;
  const unplaced: UnplacedRow[] = [
    { importId: list.id, row: listedRow(4, PG.second, 1000, 2) },
    { importId: list.id, row: listedRow(5, PG.second, 400, 3, 'cancel', PG.cancel1) },
    { importId: list.id, row: listedRow(6, PG.vaccount, 7000, 4) },
  ];
  const second = approval({ pgCno: PG.second, amount: 1000, at: 2, received: 20 });

  function replay(facts: readonly LedgerFact[]) {
    const store = new StoredOrder();
    for (const fact of facts) project(store, [fact]);
    return store;
  }

  it('the store is asked for the rows of the import that governs each notification\'s day, by pgCno', () => {
    const facts = [{ order: ORDER, fact: second }, { order: ORDER, fact: partialCancel({ pgCno: PG.second, cancelPgCno: PG.cancel1, cancelAmount: 400, at: 3 }) }];
    expect(unplacedLookups(facts, [list])).toEqual([{ importId: list.id, pgCno: PG.second }]);
    expect(unplacedLookups(facts, [{ ...list, firstDay: '2026-11-22', lastDay: '2026-11-22' }])).toEqual([]);
  });

  it('the order that holds the import\'s fact gains a second one of its payment\'s rows (and its cancels\'): both count, nothing opens but the cancel never notified', () => {
    const store = replay([first, imported]);
    const { decided, changes } = projectWithCoverage(store, [second], [list], null, unplaced);
    expect(decided.placed).toEqual([{ importId: list.id, line: 4, order: ORDER }, { importId: list.id, line: 5, order: ORDER }]);
    expect(decided.facts).toHaveLength(1);
    expect(decided.facts[0]!.fact).toMatchObject({ kind: 'gateway_listing', importId: list.id, rows: [unplaced[0]!.row, unplaced[1]!.row] });
    // Two approvals of one order are a duplicate payment whatever the lists say; of the list's, only the cancel never notified is open.
    const open = changes.discrepancies.map((d) => d.discrepancy).filter((d) => d.resolvedAt === null && d.kind !== 'duplicate_payment');
    expect(open.map((d) => [d.kind, d.details.pgCno, d.details.cancelPgCno])).toEqual([['notification_missing', PG.second, PG.cancel1]]);
  });

  it('a rebuild from the stored facts, in any order they are folded, opens the same discrepancy, the same id', () => {
    const store = replay([first, imported]);
    const { decided, changes } = projectWithCoverage(store, [second], [list], null, unplaced);
    const rebuilt = project(new StoredOrder(), [second, decided.facts[0]!.fact, imported, first]);
    const shown = (c: OrderChanges) => c.discrepancies.map((d) => d.discrepancy).filter((d) => d.kind === 'notification_missing').map((d) => [d.id, d.details.pgCno, d.details.cancelPgCno, d.resolvedAt]).sort();
    expect(shown(rebuilt)).toEqual(shown(changes));
    expect(shown(changes)).toHaveLength(1);
  });

  it('an order that holds no fact of the import gains one of its rows alone; a row of another pgCno stays unplaced', () => {
    const { decided, changes } = projectWithCoverage(new StoredOrder(), [second], [list], null, unplaced.slice(0, 1).concat(unplaced.slice(2)));
    expect(decided.facts.map((f) => (f.fact.kind === 'gateway_listing' ? f.fact.rows.map((r) => r.line) : null))).toEqual([[4]]);
    expect(decided.placed.map((p) => p.line)).toEqual([4]);
    // Missing from the import's time until the resend, then closed by the ledger; nothing stays open, no not_in_gateway_list.
    expect(changes.discrepancies.map((d) => [d.discrepancy.kind, d.discrepancy.resolvedBy])).toEqual([['notification_missing', 'ledger']]);
  });
});
