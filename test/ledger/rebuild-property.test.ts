import fc from 'fast-check';
import { ledgerEvents } from '../../src/ledger/fold/ledger-events';
import type { LedgerFact } from '../../src/ledger/fold/ledger-facts';
import type { LedgerSettings } from '../../src/config/ledger-settings';
import type { OrderRecord } from '../../src/ledger/fold/order-record';
import { BASE_MS, resolution } from './ledger-fixtures';
import { now, settings, story, withResolutions, resolutions } from './ledger-arbitraries';
import { compute } from './ledger-specification';

const minutesOf = (iso: string): number => (Date.parse(iso) - BASE_MS) / 60_000;

describe('rebuild: the record is a function of the facts', () => {
  it('any arrival order, with redeliveries, gives the identical record, sweep time included', () => {
    fc.assert(
      fc.property(story, settings, now, resolutions, ([facts, arrival], s, at, picks) => {
        const options = { settings: s, now: at };
        const resolved = withResolutions(facts, picks, options);
        const extra = resolved.slice(facts.length);
        expect(compute([...extra, ...arrival], options)).toEqual(compute(resolved, options));
      }),
      { numRuns: 300 },
    );
  });

  it('the figures hold together: integers, remaining = approved + deposited - cancelled, arrays by time then id', () => {
    fc.assert(
      fc.property(story, settings, now, ([facts], s, at) => {
        const record = compute(facts, { settings: s, now: at }).record!;
        for (const figure of [record.approved, record.cancelled, record.deposited, record.remaining]) expect(Number.isSafeInteger(figure)).toBe(true);
        expect(record.remaining).toBe(record.approved + record.deposited - record.cancelled);
        expect(new Set(record.events).size).toBe(record.events.length);
        for (const list of [record.payments, record.cancels, record.deposits]) {
          const keys = list.map((entry) => [Date.parse(entry.at), entry.eventId] as const);
          const sorted = [...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
          expect(keys).toEqual(sorted);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('recomputing after each arrival announces each discrepancy of the rebuilt record exactly once, and the status changes chain up to its status', () => {
    fc.assert(
      fc.property(story, settings, now, ([facts], s, at) => {
        // One transaction per arrival: two facts stored in the same millisecond by two transactions
        // would each see the other absent, a moment the rebuild (which reads that millisecond as one)
        // never has. The record is the same either way; this property is about the announcements.
        // Each fact its own millisecond, two variants of one id included: the store keeps the first
        // stored of an id, and so must the fold, live and rebuilt. Variants sharing a millisecond
        // (a millisecond per id) let the fold keep the later arrival by its text, so the live
        // sequence announced what the first variant showed and the rebuild never saw (seed 1557145973).
        const stored = facts.map((f, i) => ({ ...f, recordedAt: new Date(Date.parse(f.recordedAt) + i).toISOString() }) as LedgerFact);
        const arrival = [...stored].sort((a, b) => Date.parse(a.recordedAt) - Date.parse(b.recordedAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        const lastArrival = minutesOf(arrival[arrival.length - 1]!.recordedAt);
        const sweepTime = Math.max(at, lastArrival);
        let previous: OrderRecord | null = null;
        const announced: string[] = [];
        const statuses: Array<[string | null, string]> = [];
        const steps = arrival.map((f, i) => ({ facts: arrival.slice(0, i + 1), now: minutesOf(f.recordedAt) }));
        for (const step of [...steps, { facts: arrival, now: sweepTime }]) {
          const next = compute(step.facts, { settings: s, now: step.now }).record;
          if (next === null) continue;
          for (const event of ledgerEvents(previous, next)) {
            if (event.type === 'ledger.discrepancy') announced.push(event.discrepancy.id);
            else if (event.type === 'order.status_changed') statuses.push([event.from, event.to]);
          }
          previous = next;
        }
        const rebuilt = compute(stored, { settings: s, now: sweepTime }).record!;
        expect(previous).toEqual(rebuilt);
        expect([...announced].sort()).toEqual(rebuilt.discrepancies.map((d) => d.id).sort());
        expect(statuses[0]?.[0]).toBeNull();
        statuses.forEach(([from], i) => i > 0 && expect(from).toBe(statuses[i - 1]![1]));
        expect(statuses[statuses.length - 1]![1]).toBe(rebuilt.status);
      }),
      { numRuns: 200 },
    );
  });

  it('once every discrepancy is resolved the status still says the money: paid only when what is held matches the expectation', () => {
    const moneyStatus = (facts: LedgerFact[], options: { settings: Partial<LedgerSettings>; now: number }): OrderRecord => {
      const found = compute(facts, options).record!.discrepancies.filter((d) => d.resolvedAt === null);
      return compute([...facts, ...found.map((d, i) => resolution(d.id, { received: 400 + i }))], options).record!;
    };
    const reached = new Set<string>();
    fc.assert(
      fc.property(story, settings, ([facts, arrival], s) => {
        const options = { settings: s, now: 400 };
        const record = moneyStatus(facts, options);
        reached.add(record.status);
        expect(moneyStatus(arrival, options)).toEqual(record);
        const expected = record.expected?.amount;
        // At these statuses no payment held has lost part of itself: what remains is what is held whole.
        if (record.status === 'paid') expect(expected === undefined || record.remaining === expected).toBe(true);
        if (record.status === 'underpaid') expect(record.remaining).toBeLessThan(expected!);
        if (record.status === 'overpaid') expect(record.remaining).toBeGreaterThan(expected!);
      }),
      { numRuns: 300 },
    );
    // The stories reach the statuses this property is about, not only the others.
    for (const status of ['paid', 'underpaid', 'overpaid']) expect(reached).toContain(status);
  });
});
