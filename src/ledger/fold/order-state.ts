import type { CancellationFact, ConflictFact, ExpectationFact, GatewayListingFact, GatewaySettlementFact, InputFact, LedgerFact, NotificationFact, RefusalFact } from './ledger-facts';
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
  conflicts: ReadonlyMap<string, Timed<ConflictFact>>;
  refusals: ReadonlyMap<string, Timed<RefusalFact>>;
  listings: ReadonlyMap<string, Timed<GatewayListingFact>>;
  settlements: ReadonlyMap<string, Timed<GatewaySettlementFact>>;
}

const initialOrderState = (): OrderState => ({
  expectations: new Map(),
  notifications: new Map(),
  cancellations: new Map(),
  conflicts: new Map(),
  refusals: new Map(),
  listings: new Map(),
  settlements: new Map(),
});

/** One step of the fold, with the fact's times already parsed: a replay parses each fact's two times once, not at every step. */
function evolveTimed(state: OrderState, entry: Timed<InputFact>): OrderState {
  switch (entry.fact.kind) {
    case 'expectation':
      return { ...state, expectations: withFact(state.expectations, entry as Timed<ExpectationFact>) };
    case 'notification':
      return { ...state, notifications: withFact(state.notifications, entry as Timed<NotificationFact>) };
    case 'cancellation':
      return { ...state, cancellations: withFact(state.cancellations, entry as Timed<CancellationFact>) };
    case 'conflict':
      return { ...state, conflicts: withFact(state.conflicts, entry as Timed<ConflictFact>) };
    case 'refusal':
      return { ...state, refusals: withFact(state.refusals, entry as Timed<RefusalFact>) };
    case 'gateway_listing':
      return { ...state, listings: withFact(state.listings, entry as Timed<GatewayListingFact>) };
    case 'gateway_settlement':
      return { ...state, settlements: withFact(state.settlements, entry as Timed<GatewaySettlementFact>) };
  }
}

/** The state a fold owns while it applies facts: the same sets, grown in place (a copy per fact made a replay O(n²)). */
export interface GrowingOrderState extends OrderState {
  expectations: Map<string, Timed<ExpectationFact>>;
  notifications: Map<string, Timed<NotificationFact>>;
  cancellations: Map<string, Timed<CancellationFact>>;
  conflicts: Map<string, Timed<ConflictFact>>;
  refusals: Map<string, Timed<RefusalFact>>;
  listings: Map<string, Timed<GatewayListingFact>>;
  settlements: Map<string, Timed<GatewaySettlementFact>>;
}

export const growingOrderState = (): GrowingOrderState => ({
  expectations: new Map(),
  notifications: new Map(),
  cancellations: new Map(),
  conflicts: new Map(),
  refusals: new Map(),
  listings: new Map(),
  settlements: new Map(),
});

/** `evolveTimed`, in place: the same choice of fact per id. */
export function evolveInPlace(state: GrowingOrderState, entry: Timed<InputFact>): void {
  const set = state[SETS[entry.fact.kind]] as Map<string, Timed<InputFact>>;
  const current = set.get(entry.id);
  if (current === undefined || preferredFact(entry.fact, current.fact)) set.set(entry.id, entry);
}

const SETS = { expectation: 'expectations', notification: 'notifications', cancellation: 'cancellations', conflict: 'conflicts', refusal: 'refusals', gateway_listing: 'listings', gateway_settlement: 'settlements' } as const;

/** The expectation in force: the latest registered (by its time, then id). */
export function currentExpectation(state: OrderState): Timed<ExpectationFact> | null {
  let latest: Timed<ExpectationFact> | null = null;
  for (const entry of state.expectations.values()) if (latest === null || byTimeThenId(latest, entry) < 0) latest = entry;
  return latest;
}

/** The fact with its times parsed; a caller that already parsed `recordedAt` passes it. */
export function timed<F extends InputFact>(fact: F, recordedMs?: number): Timed<F> {
  const ms = epochMs(`${fact.kind}.at`, fact.at);
  return { fact, id: fact.id, ms, recordedMs: recordedMs ?? epochMs(`${fact.kind}.recordedAt`, fact.recordedAt) };
}

/**
 * A redelivery is the same fact and changes nothing. Two different facts under one id (a
 * conflicting redelivery: the inbox keeps the first) are settled without looking at arrival:
 * the first stored wins, then the smaller text.
 */
function withFact<F extends InputFact>(map: ReadonlyMap<string, Timed<F>>, entry: Timed<F>): ReadonlyMap<string, Timed<F>> {
  const current = map.get(entry.id);
  if (current !== undefined && !preferredFact(entry.fact, current.fact)) return map;
  const next = new Map(map);
  next.set(entry.id, entry);
  return next;
}

export function preferredFact(candidate: LedgerFact, current: LedgerFact): boolean {
  const a = Date.parse(candidate.recordedAt);
  const b = Date.parse(current.recordedAt);
  if (a !== b) return a < b;
  return JSON.stringify(candidate) < JSON.stringify(current);
}

/**
 * One fact per id, chosen as `evolve` chooses, so no step of a replay ever sees the variant of a
 * conflicting redelivery that the store would not have kept.
 */
export function distinctFacts(facts: readonly LedgerFact[]): LedgerFact[] {
  const byId = new Map<string, LedgerFact>();
  for (const fact of facts) {
    const current = byId.get(fact.id);
    if (current === undefined || preferredFact(fact, current)) byId.set(fact.id, fact);
  }
  return [...byId.values()];
}

/** The order's state from its inputs, read by the gateway's time then id (resolutions are not inputs). */
export function foldOrder(facts: readonly LedgerFact[]): OrderState {
  const inputs = distinctFacts(facts).filter((f): f is InputFact => f.kind !== 'resolution').map((fact) => timed(fact)).sort(byTimeThenId);
  return inputs.reduce(evolveTimed, initialOrderState());
}
