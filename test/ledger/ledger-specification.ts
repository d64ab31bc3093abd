import { computeOrderRecord, type LedgerComputation } from '../../src/ledger/fold/compute-order-record';
import type { LedgerFact } from '../../src/ledger/fold/ledger-facts';
import { DEFAULT_LEDGER_SETTINGS, type LedgerSettings } from '../../src/config/ledger-settings';
import type { OrderRecord } from '../../src/ledger/fold/order-record';
import { ORDER, minute } from './ledger-fixtures';

export interface SpecOptions {
  settings?: Partial<LedgerSettings>;
  /** Minutes after the fixtures' base; by default a day later, when every grace period has passed. */
  now?: number;
}

export function compute(facts: readonly LedgerFact[], options: SpecOptions = {}, stepping = true): LedgerComputation {
  return computeOrderRecord(ORDER, facts, {
    now: minute(options.now ?? 24 * 60),
    settings: { ...DEFAULT_LEDGER_SETTINGS, ...options.settings },
    stepping,
  });
}

/**
 * given(facts).when(fact).then(record), after emmett's decider specification, over the pure
 * record. Every `then` also recomputes from the facts reversed and from each fact delivered
 * twice: the answer must not change, as the gateway may deliver in any order and more than once;
 * and with the order's whole state read after every input, which the fold's steps must equal.
 */
export function given(...history: LedgerFact[]) {
  return {
    when: (...newFacts: LedgerFact[]) => ({
      then: (expected: Partial<OrderRecord> | ((record: OrderRecord, computation: LedgerComputation) => void), options: SpecOptions = {}) => {
        const facts = [...history, ...newFacts];
        const computation = compute(facts, options);
        const record = computation.record;
        if (record === null) throw new Error('no record: the facts name no order');
        if (typeof expected === 'function') expected(record, computation);
        else expect(record).toMatchObject(expected);
        expect(compute([...facts].reverse(), options)).toEqual(computation);
        expect(compute(facts.flatMap((f) => [f, f]), options)).toEqual(computation);
        expect(compute(facts, options, false)).toEqual(computation);
        return record;
      },
    }),
  };
}

export const openKinds = (record: OrderRecord): string[] => record.discrepancies.filter((d) => d.resolvedAt === null).map((d) => d.kind);
