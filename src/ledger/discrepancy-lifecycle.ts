import { discrepancyId, shownConditions, type DiscrepancyCondition } from './discrepancy-conditions';
import type { InputFact, LedgerFact, OrderKey, ResolutionFact } from './ledger-facts';
import type { LedgerSettings } from '../config/ledger-settings';
import { epochMs, isIsoOf, isoOf } from './ledger-time';
import { orderFigures, type OrderFigures } from './order-figures';
import { GRACE_KINDS, type Discrepancy, type DiscrepancyKind } from './order-record';
import { distinctFacts, evolveTimed, initialOrderState, timed } from './order-state';

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

/** The figures and conditions of one state: the moment's evaluation, a grace pass and `sweepAt` read the same state, so each is computed once. */
interface Reading {
  figures: OrderFigures;
  conditions: DiscrepancyCondition[];
}

interface Moment {
  ms: number;
  /** The recordedAt text of one of its facts. */
  recordedAt: string;
  inputs: InputFact[];
  resolutions: ResolutionFact[];
}

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
export function replayOrder(order: OrderKey, facts: readonly LedgerFact[], settings: LedgerSettings, nowMs: number): Replay {
  const graceMs = settings.graceSeconds * 1000;
  const seen = new Map<string, Discrepancy>();
  const pending = new Map<string, ResolutionFact>();
  const idOf = discrepancyIds(order);
  let state = initialOrderState();
  let reading: Reading | null = null;
  // Moments come in stored order, so the inputs last changed at the latest moment that had any.
  let lastInput: number | null = null;
  let latest: number | null = null;
  let graceDoneFor: number | null = null;
  // The stored times that are already what isoOf prints (the receiver's own): the times the
  // record writes are mostly these, and printing one costs more than the rest of a small fold.
  const printed = new Map<number, string>();
  const iso = (ms: number): string => printed.get(ms) ?? isoOf(ms);

  const read = (): Reading => {
    if (reading !== null) return reading;
    const figures = orderFigures(state);
    const conditions = shownConditions(figures, settings).map((c) => ({ id: idOf(c.kind, c.eventIds), ...c }));
    return (reading = { figures, conditions });
  };
  const changedAt = (ms: number): void => {
    if (latest === null || ms > latest) latest = ms;
  };
  const evaluate = (atMs: number, withGrace: boolean): void => {
    // Most moments open and close nothing: the ISO text is made only when a time is written.
    let at: string | null = null;
    const atText = (): string => {
      changedAt(atMs);
      return (at ??= iso(atMs));
    };
    const holding = read().conditions;
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
  };
  const graceDue = (): number | null => (lastInput === null || lastInput === graceDoneFor ? null : lastInput + graceMs);
  const passGrace = (untilMs: number): void => {
    const due = graceDue();
    if (due === null || due > untilMs) return;
    evaluate(due, true);
    graceDoneFor = lastInput;
  };

  // Facts stored in the same millisecond are one moment: the conditions are read after all of them.
  for (const moment of timeline(distinctFacts(facts))) {
    if (isIsoOf(moment.recordedAt, moment.ms)) printed.set(moment.ms, moment.recordedAt);
    passGrace(moment.ms);
    if (moment.inputs.length > 0) {
      // recordedAt is the moment's: only `at` is left to parse, once per fact.
      for (const input of moment.inputs) state = evolveTimed(state, timed(input, moment.ms));
      reading = null;
      lastInput = moment.ms;
      changedAt(moment.ms);
      evaluate(moment.ms, graceMs === 0);
      if (graceMs === 0) graceDoneFor = lastInput;
    }
    for (const resolution of moment.resolutions) if (resolve(seen, pending, resolution, iso(moment.ms))) changedAt(moment.ms);
  }
  passGrace(nowMs);
  if (lastInput === null) return { discrepancies: [...seen.values()], sweepAt: null, figures: null, updatedAt: null };
  const due = graceDue();
  const waiting = due !== null && sweepWaits(read(), seen);
  return { discrepancies: [...seen.values()], sweepAt: waiting ? iso(due) : null, figures: read().figures, updatedAt: iso(latest ?? lastInput) };
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
function timeline(facts: readonly LedgerFact[]): Moment[] {
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
function resolve(seen: Map<string, Discrepancy>, pending: Map<string, ResolutionFact>, resolution: ResolutionFact, at: string): boolean {
  const target = seen.get(resolution.discrepancyId);
  if (target === undefined) {
    if (!pending.has(resolution.discrepancyId)) pending.set(resolution.discrepancyId, resolution);
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
