import { discrepancyId, shownConditions, steppedConditions, type DiscrepancyCondition, type ShownCondition } from './discrepancy-conditions';
import { figureStep, stepFigures } from './figures-step';
import type { InputFact, LedgerFact, NotificationFact, OrderKey, ResolutionFact } from './ledger-facts';
import type { LedgerSettings } from '../../config/ledger-settings';
import { epochMs, isIsoOf, isoOf } from './ledger-time';
import { orderFigures, type OrderFigures } from './order-figures';
import { GRACE_KINDS, type Discrepancy, type DiscrepancyKind } from './order-record';
import { distinctFacts, evolveInPlace, growingOrderState, timed, type GrowingOrderState, type Timed } from './order-state';

export const LEDGER_RESOLVER = 'ledger';
/** The note of the ledger's own resolution; pages say it in their language. */
export const NO_LONGER_HOLDS = 'the condition no longer holds';

export interface Lifecycle {
  discrepancies: Discrepancy[];
  /** When a grace-period kind that holds now will open if nothing changes; null when none waits. */
  sweepAt: string | null;
}

/** What the replay read of the state after the last input: the record's figures are the same. */
export interface Replay extends Lifecycle {
  /** The figures of the state after every input (what `foldOrder` gives: `evolve` is commutative); null when the facts hold no input (there is no record then). */
  figures: OrderFigures | null;
  /** The latest of the inputs' recordedAt and the discrepancies' times (the record's `updatedAt`); null with no input. */
  updatedAt: string | null;
}

/**
 * The figures and conditions of one state: the moment's evaluation, a grace pass and `sweepAt`
 * read the same state, so each is computed once; and a new in-order notification whose effect is
 * local steps them (`figures-step.ts`) instead of reading the order's whole state again.
 */
export interface Reading {
  figures: OrderFigures;
  conditions: DiscrepancyCondition[];
  /** Notifications stepped in since the state was last read whole. */
  steps: number;
}

/** Facts stored in one millisecond: the conditions are read once, after all its inputs. */
export interface Moment {
  ms: number;
  /** The recordedAt text of one of its facts. */
  recordedAt: string;
  inputs: InputFact[];
  resolutions: ResolutionFact[];
}

/** The discrepancies as they stand, and the latest time they or an input changed. */
interface Book {
  seen: Map<string, Discrepancy>;
  /** Resolutions stored before the discrepancy they name opened: they close it when it opens. */
  pending: Map<string, ResolutionFact>;
  latest: number | null;
}

/**
 * Everything the replay knows after its last moment: the order's state (what `evolve` folds), the
 * resolutions read, the discrepancies seen, and the grace bookkeeping. A later moment needs nothing
 * else, so this is what the store keeps between inputs (`fold-state.ts`).
 */
export interface FoldCheckpoint extends Book {
  state: GrowingOrderState;
  /** Every resolution fact applied (or waiting in `pending`), by id. */
  resolutions: Map<string, ResolutionFact>;
  /** The last moment that changed the inputs. */
  lastInput: number | null;
  /** The `lastInput` whose grace period has been read. */
  graceDoneFor: number | null;
  /** The last moment applied; null before the first. */
  lastMoment: number | null;
  /** The reading of `state`, kept while it is in memory (never stored: a restored checkpoint reads its state once); null until read. */
  reading: Reading | null;
}

export const emptyCheckpoint = (): FoldCheckpoint => ({
  state: growingOrderState(),
  resolutions: new Map(),
  seen: new Map(),
  pending: new Map(),
  latest: null,
  lastInput: null,
  graceDoneFor: null,
  lastMoment: null,
  reading: null,
});

/**
 * Replays the order's inputs in the order this service stored them (recordedAt) and
 * keeps, at each step, which discrepancies hold: a condition that appears opens (grace kinds only
 * once the inputs have been still for the grace period), one that stops holding is resolved by
 * `ledger`, and an operator's resolution closes the one it names. Everything comes from the
 * stored facts, so a rebuild reproduces every openedAt and resolvedAt, and a redelivery (a fact
 * already there) changes nothing. A discrepancy once seen is never opened again under its id.
 * It also gives what the record needs (the final figures, the latest time), so the caller
 * computes neither again.
 */
export function replayOrder(order: OrderKey, facts: readonly LedgerFact[], settings: LedgerSettings, nowMs: number, stepping = true): Replay {
  const fold = new OrderFold(order, settings, emptyCheckpoint(), stepping);
  for (const moment of timeline(distinctFacts(facts))) fold.apply(moment);
  return fold.finish(nowMs);
}

/**
 * The replay, one moment at a time, able to stop after any moment and go on later from its
 * checkpoint: a moment applied to a checkpoint does exactly what the replay does at that moment,
 * so going on from a stored checkpoint gives what replaying every fact gives. Moments must come
 * in stored order, each after the checkpoint's last (`after`). `stepping` false reads the whole
 * state after every input (the tests compare the steps with it).
 */
export class OrderFold {
  private readonly graceMs: number;
  private readonly idOf: (kind: DiscrepancyKind, eventIds: readonly string[]) => string;
  // The stored times that are already what isoOf prints (the receiver's own): the times the
  // record writes are mostly these, and printing one costs more than the rest of a small fold.
  private readonly printed = new Map<number, string>();

  constructor(
    order: OrderKey,
    private readonly settings: LedgerSettings,
    readonly checkpoint: FoldCheckpoint = emptyCheckpoint(),
    private readonly stepping = true,
  ) {
    this.graceMs = settings.graceSeconds * 1000;
    this.idOf = discrepancyIds(order);
  }

  /** True when a moment at `ms` comes after every moment applied: it can be applied. */
  after(ms: number): boolean {
    return this.checkpoint.lastMoment === null || ms > this.checkpoint.lastMoment;
  }

  /** The fact of this id the fold holds, if any. */
  factOf(id: string): LedgerFact | undefined {
    const { state, resolutions } = this.checkpoint;
    return state.notifications.get(id)?.fact ?? resolutions.get(id) ?? state.expectations.get(id)?.fact ?? state.cancellations.get(id)?.fact
      ?? state.conflicts.get(id)?.fact ?? state.refusals.get(id)?.fact ?? state.listings.get(id)?.fact ?? state.settlements.get(id)?.fact;
  }

  apply(moment: Moment): void {
    const at = this.checkpoint;
    if (!this.after(moment.ms)) throw new Error(`the ledger's fold cannot apply a moment at or before its last (${moment.recordedAt})`);
    if (isIsoOf(moment.recordedAt, moment.ms)) this.printed.set(moment.ms, moment.recordedAt);
    this.passGrace(moment.ms);
    if (moment.inputs.length > 0) {
      // recordedAt is the moment's: only `at` is left to parse, once per fact.
      for (const input of moment.inputs) {
        const entry = timed(input, moment.ms);
        const stepped = this.stepping && this.factOf(entry.id) === undefined ? this.stepped(entry) : null;
        evolveInPlace(at.state, entry);
        at.reading = stepped;
      }
      at.lastInput = moment.ms;
      changedAt(at, moment.ms);
      this.evaluate(at, moment.ms, this.graceMs === 0);
      if (this.graceMs === 0) at.graceDoneFor = at.lastInput;
    }
    for (const resolution of moment.resolutions) {
      at.resolutions.set(resolution.id, resolution);
      if (resolve(at, resolution, this.iso(moment.ms))) changedAt(at, moment.ms);
    }
    at.lastMoment = moment.ms;
  }

  /**
   * The lifecycle as of `nowMs`. A grace period that has passed by then opens what waited for it
   * in a copy of the discrepancies: the checkpoint stays at its last moment, so a later moment
   * reads the grace period as the replay does (only when nothing came before it ends).
   */
  finish(nowMs: number): Replay {
    const at = this.checkpoint;
    const due = this.graceDue();
    let book: Book = at;
    if (due !== null && due <= nowMs) {
      book = { seen: new Map([...at.seen].map(([id, d]) => [id, { ...d }])), pending: at.pending, latest: at.latest };
      this.evaluate(book, due, true);
    }
    const discrepancies = [...book.seen.values()].map((d) => ({ ...d }));
    if (at.lastInput === null) return { discrepancies, sweepAt: null, figures: null, updatedAt: null };
    const waiting = due !== null && due > nowMs && sweepWaits(this.read(), book.seen);
    return { discrepancies, sweepAt: waiting ? this.iso(due) : null, figures: this.read().figures, updatedAt: this.iso(book.latest ?? at.lastInput) };
  }

  private iso(ms: number): string {
    return this.printed.get(ms) ?? isoOf(ms);
  }

  private read(): Reading {
    if (this.checkpoint.reading !== null) return this.checkpoint.reading;
    const figures = orderFigures(this.checkpoint.state);
    const conditions = shownConditions(figures, this.settings).map(this.withId);
    return (this.checkpoint.reading = { figures, conditions, steps: 0 });
  }

  private readonly withId = (c: ShownCondition): DiscrepancyCondition => ({ id: this.idOf(c.kind, c.eventIds), ...c });

  /**
   * The reading after a new input, stepped from the current one; null when the state must be read
   * whole. Only from a reading kept in memory: a checkpoint restored from its text reads its state
   * once after its first input, as it would with no step (reading it before, to step, would read
   * it twice whenever the step does not apply).
   */
  private stepped(entry: Timed<InputFact>): Reading | null {
    const before = this.checkpoint.reading;
    if (before === null || entry.fact.kind !== 'notification') return null;
    const n = entry as Timed<NotificationFact>;
    const step = figureStep(before.figures, n);
    if (step === null || !stepFigures(before.figures, n, step)) return null;
    // Not undone when null: the state is read whole then, and these figures are dropped.
    const conditions = steppedConditions(before.conditions, before.figures, step, this.withId);
    return conditions === null ? null : { figures: before.figures, conditions, steps: before.steps + 1 };
  }

  private evaluate(book: Book, atMs: number, withGrace: boolean): void {
    // Most moments open and close nothing: the ISO text is made only when a time is written.
    let at: string | null = null;
    const atText = (): string => {
      changedAt(book, atMs);
      return (at ??= this.iso(atMs));
    };
    const holding = this.read().conditions;
    const { seen, pending } = book;
    if (seen.size > 0) {
      const ids = new Set(holding.map((c) => c.id));
      for (const d of seen.values()) {
        if (d.resolvedAt === null && !ids.has(d.id)) Object.assign(d, { resolvedAt: atText(), resolvedBy: LEDGER_RESOLVER, note: NO_LONGER_HOLDS });
      }
    }
    for (const c of holding) {
      const known = seen.get(c.id);
      // An open one shows the figures as they are now; a resolved one keeps those it was closed with.
      if (known !== undefined && known.resolvedAt === null) known.details = c.details;
      if (known !== undefined || (GRACE_KINDS.includes(c.kind) && !withGrace)) continue;
      const opened: Discrepancy = { id: c.id, kind: c.kind, details: c.details, eventIds: c.eventIds, openedAt: atText(), resolvedAt: null, resolvedBy: null, note: null };
      const resolution = pending.get(c.id);
      if (resolution) Object.assign(opened, { resolvedAt: at, resolvedBy: resolution.by, note: resolution.note });
      seen.set(c.id, opened);
    }
  }

  private graceDue(): number | null {
    const { lastInput, graceDoneFor } = this.checkpoint;
    return lastInput === null || lastInput === graceDoneFor ? null : lastInput + this.graceMs;
  }

  private passGrace(untilMs: number): void {
    const due = this.graceDue();
    if (due === null || due > untilMs) return;
    this.evaluate(this.checkpoint, due, true);
    this.checkpoint.graceDoneFor = this.checkpoint.lastInput;
  }
}

function changedAt(book: Book, ms: number): void {
  if (book.latest === null || ms > book.latest) book.latest = ms;
}

/** Discrepancy ids, each SHA-256 computed once per kind and events: a condition that holds over many moments shows the same id at each. */
function discrepancyIds(order: OrderKey): (kind: DiscrepancyKind, eventIds: readonly string[]) => string {
  const known = new Map<string, string>();
  return (kind, eventIds) => {
    const key = JSON.stringify([kind, eventIds]);
    let id = known.get(key);
    if (id === undefined) known.set(key, (id = discrepancyId(order, kind, eventIds)));
    return id;
  };
}

/**
 * The facts grouped by the millisecond they were stored in; inputs before resolutions: an operator
 * resolves what was there. Within a moment, by id (sorted by id, then stably by time).
 */
export function timeline(facts: readonly LedgerFact[]): Moment[] {
  const stored = [...facts]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((fact) => ({ fact, ms: epochMs(`${fact.kind}.recordedAt`, fact.recordedAt) }))
    .sort((a, b) => a.ms - b.ms);
  const moments: Moment[] = [];
  for (const { fact, ms } of stored) {
    let moment = moments[moments.length - 1];
    if (moment === undefined || moment.ms !== ms) moments.push((moment = { ms, recordedAt: fact.recordedAt, inputs: [], resolutions: [] }));
    if (fact.kind === 'resolution') moment.resolutions.push(fact);
    else moment.inputs.push(fact);
  }
  return moments;
}

/**
 * The first resolution of a discrepancy stands. One stored before the discrepancy it names
 * opened (another replica's clock ran behind) waits and closes it when it opens. True when it closed one now.
 */
function resolve(book: Book, resolution: ResolutionFact, at: string): boolean {
  const target = book.seen.get(resolution.discrepancyId);
  if (target === undefined) {
    if (!book.pending.has(resolution.discrepancyId)) book.pending.set(resolution.discrepancyId, resolution);
    return false;
  }
  if (target.resolvedAt !== null) return false;
  Object.assign(target, { resolvedAt: at, resolvedBy: resolution.by, note: resolution.note });
  return true;
}

/** A grace-period kind holds and has not opened (the final state's conditions, already read by the last evaluation). */
function sweepWaits(final: Reading, seen: Map<string, Discrepancy>): boolean {
  return final.conditions.some((c) => GRACE_KINDS.includes(c.kind) && !seen.has(c.id));
}
