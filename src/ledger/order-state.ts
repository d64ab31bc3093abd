import type { CancellationFact, ExpectationFact, InputFact, NotificationFact } from './ledger-facts';
import { byTimeThenId, epochMs } from './ledger-time';

/** A fact with its time as epoch ms (`ms`, from `at`) and its storage time (`recordedMs`). */
export interface Timed<F> {
  fact: F;
  id: string;
  ms: number;
  recordedMs: number;
}

/**
 * What the ledger has learnt about one order: sets keyed by fact id. Evolving it is
 * commutative and idempotent (the same fact twice is one entry; where one fact must win, the
 * latest by the gateway's time then id wins whatever came first), which is what makes any
 * arrival order, any redelivery and a rebuild give the same record.
 */
export interface OrderState {
  expectations: ReadonlyMap<string, Timed<ExpectationFact>>;
  notifications: ReadonlyMap<string, Timed<NotificationFact>>;
  cancellations: ReadonlyMap<string, Timed<CancellationFact>>;
}

export const initialOrderState = (): OrderState => ({
  expectations: new Map(),
  notifications: new Map(),
  cancellations: new Map(),
});

export function evolve(state: OrderState, fact: InputFact): OrderState {
  const entry = timed(fact);
  switch (entry.fact.kind) {
    case 'expectation':
      return { ...state, expectations: withFact(state.expectations, entry as Timed<ExpectationFact>) };
    case 'notification':
      return { ...state, notifications: withFact(state.notifications, entry as Timed<NotificationFact>) };
    case 'cancellation':
      return { ...state, cancellations: withFact(state.cancellations, entry as Timed<CancellationFact>) };
  }
}

/** The expectation in force: the latest registered (by its time, then id). */
export function currentExpectation(state: OrderState): Timed<ExpectationFact> | null {
  let latest: Timed<ExpectationFact> | null = null;
  for (const entry of state.expectations.values()) if (latest === null || byTimeThenId(latest, entry) < 0) latest = entry;
  return latest;
}

/** Epoch ms when the order's inputs last changed: the grace period counts from it. Null for no input. */
export function lastInputMs(state: OrderState): number | null {
  let last: number | null = null;
  for (const map of [state.expectations, state.notifications, state.cancellations] as ReadonlyArray<ReadonlyMap<string, Timed<unknown>>>) {
    for (const entry of map.values()) if (last === null || entry.recordedMs > last) last = entry.recordedMs;
  }
  return last;
}

function timed<F extends InputFact>(fact: F): Timed<F> {
  return { fact, id: fact.id, ms: epochMs(`${fact.kind}.at`, fact.at), recordedMs: epochMs(`${fact.kind}.recordedAt`, fact.recordedAt) };
}

/**
 * A redelivery is the same fact and changes nothing. Two different facts under one id (a
 * conflicting redelivery: the inbox keeps the first) are settled without looking at arrival:
 * the first stored wins, then the smaller text.
 */
function withFact<F extends InputFact>(map: ReadonlyMap<string, Timed<F>>, entry: Timed<F>): ReadonlyMap<string, Timed<F>> {
  const current = map.get(entry.id);
  if (current !== undefined && !preferred(entry, current)) return map;
  const next = new Map(map);
  next.set(entry.id, entry);
  return next;
}

function preferred<F>(candidate: Timed<F>, current: Timed<F>): boolean {
  if (candidate.recordedMs !== current.recordedMs) return candidate.recordedMs < current.recordedMs;
  return JSON.stringify(candidate.fact) < JSON.stringify(current.fact);
}
