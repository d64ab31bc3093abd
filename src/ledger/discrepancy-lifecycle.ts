import { discrepancyConditions } from './discrepancy-conditions';
import type { InputFact, LedgerFact, OrderKey, ResolutionFact } from './ledger-facts';
import type { LedgerSettings } from './ledger-settings';
import { epochMs, isoOf } from './ledger-time';
import { orderFigures } from './order-figures';
import { GRACE_KINDS, type Discrepancy } from './order-record';
import { distinctFacts, evolve, initialOrderState, lastInputMs, type OrderState } from './order-state';

export const LEDGER_RESOLVER = 'ledger';
const NO_LONGER_HOLDS = 'the condition no longer holds';

export interface Lifecycle {
  discrepancies: Discrepancy[];
  /** When a grace-period kind that holds now will open if nothing changes; null when none waits. */
  sweepAt: string | null;
}

interface Moment {
  ms: number;
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
 */
export function replayDiscrepancies(order: OrderKey, facts: readonly LedgerFact[], settings: LedgerSettings, nowMs: number): Lifecycle {
  const graceMs = settings.graceSeconds * 1000;
  const seen = new Map<string, Discrepancy>();
  const pending = new Map<string, ResolutionFact>();
  let state = initialOrderState();
  let graceDoneFor: number | null = null;

  const evaluate = (atMs: number, withGrace: boolean): void => {
    const at = isoOf(atMs);
    const holding = discrepancyConditions(order, orderFigures(state), settings);
    const ids = new Set(holding.map((c) => c.id));
    for (const d of seen.values()) {
      if (d.resolvedAt === null && !ids.has(d.id)) Object.assign(d, { resolvedAt: at, resolvedBy: LEDGER_RESOLVER, note: NO_LONGER_HOLDS });
    }
    for (const c of holding) {
      const known = seen.get(c.id);
      // An open one shows the figures as they are now; a resolved one keeps those it was closed with.
      if (known !== undefined && known.resolvedAt === null) known.details = c.details;
      if (known !== undefined || (GRACE_KINDS.includes(c.kind) && !withGrace)) continue;
      const opened: Discrepancy = { id: c.id, kind: c.kind, details: c.details, eventIds: c.eventIds, openedAt: at, resolvedAt: null, resolvedBy: null, note: null };
      const resolution = pending.get(c.id);
      if (resolution) Object.assign(opened, { resolvedAt: at, resolvedBy: resolution.by, note: resolution.note });
      seen.set(c.id, opened);
    }
  };
  const graceDue = (): number | null => {
    const last = lastInputMs(state);
    return last === null || last === graceDoneFor ? null : last + graceMs;
  };
  const passGrace = (untilMs: number): void => {
    const due = graceDue();
    if (due === null || due > untilMs) return;
    evaluate(due, true);
    graceDoneFor = lastInputMs(state);
  };

  // Facts stored in the same millisecond are one moment: the conditions are read after all of them.
  for (const moment of timeline(distinctFacts(facts))) {
    passGrace(moment.ms);
    if (moment.inputs.length > 0) {
      for (const input of moment.inputs) state = evolve(state, input);
      evaluate(moment.ms, graceMs === 0);
      if (graceMs === 0) graceDoneFor = lastInputMs(state);
    }
    for (const resolution of moment.resolutions) resolve(seen, pending, resolution, moment.ms);
  }
  passGrace(nowMs);
  return { discrepancies: [...seen.values()], sweepAt: sweepAt(order, state, settings, seen, graceDue()) };
}

/** The facts grouped by the millisecond they were stored in; inputs before resolutions: an operator resolves what was there. */
function timeline(facts: readonly LedgerFact[]): Moment[] {
  const moments = new Map<number, Moment>();
  for (const fact of [...facts].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const ms = epochMs(`${fact.kind}.recordedAt`, fact.recordedAt);
    const moment = moments.get(ms) ?? { ms, inputs: [], resolutions: [] };
    if (fact.kind === 'resolution') moment.resolutions.push(fact);
    else moment.inputs.push(fact);
    moments.set(ms, moment);
  }
  return [...moments.values()].sort((a, b) => a.ms - b.ms);
}

/**
 * The first resolution of a discrepancy stands. One stored before the discrepancy it names
 * opened (another replica's clock ran behind) waits and closes it when it opens.
 */
function resolve(seen: Map<string, Discrepancy>, pending: Map<string, ResolutionFact>, resolution: ResolutionFact, ms: number): void {
  const target = seen.get(resolution.discrepancyId);
  if (target === undefined) {
    if (!pending.has(resolution.discrepancyId)) pending.set(resolution.discrepancyId, resolution);
    return;
  }
  if (target.resolvedAt !== null) return;
  Object.assign(target, { resolvedAt: isoOf(ms), resolvedBy: resolution.by, note: resolution.note });
}

function sweepAt(order: OrderKey, state: OrderState, settings: LedgerSettings, seen: Map<string, Discrepancy>, due: number | null): string | null {
  if (due === null) return null;
  const waiting = discrepancyConditions(order, orderFigures(state), settings).some((c) => GRACE_KINDS.includes(c.kind) && !seen.has(c.id));
  return waiting ? isoOf(due) : null;
}
