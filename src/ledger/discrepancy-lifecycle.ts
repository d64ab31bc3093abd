import { discrepancyConditions } from './discrepancy-conditions';
import type { InputFact, LedgerFact, OrderKey, ResolutionFact } from './ledger-facts';
import type { LedgerSettings } from './ledger-settings';
import { epochMs, isoOf } from './ledger-time';
import { orderFigures } from './order-figures';
import { GRACE_KINDS, type Discrepancy } from './order-record';
import { evolve, initialOrderState, lastInputMs, type OrderState } from './order-state';

export const LEDGER_RESOLVER = 'ledger';
const NO_LONGER_HOLDS = 'the condition no longer holds';

export interface Lifecycle {
  state: OrderState;
  discrepancies: Discrepancy[];
  /** When a grace-period kind that holds now will open if nothing changes; null when none waits. */
  sweepAt: string | null;
}

type Step = { ms: number; rank: number; id: string } & ({ input: InputFact } | { resolution: ResolutionFact });

/**
 * Replays the order's inputs in the order this service stored them (recordedAt, then id) and
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

  for (const step of timeline(facts)) {
    passGrace(step.ms);
    if ('input' in step) {
      state = evolve(state, step.input);
      evaluate(step.ms, graceMs === 0);
      if (graceMs === 0) graceDoneFor = lastInputMs(state);
    } else {
      resolve(seen, pending, step.resolution, step.ms);
    }
  }
  passGrace(nowMs);
  return { state, discrepancies: [...seen.values()], sweepAt: sweepAt(order, state, settings, seen, graceDue()) };
}

/** Inputs before resolutions stored in the same millisecond: an operator resolves what was there. */
function timeline(facts: readonly LedgerFact[]): Step[] {
  const steps = facts.map((fact): Step => {
    const ms = epochMs(`${fact.kind}.recordedAt`, fact.recordedAt);
    return fact.kind === 'resolution' ? { ms, rank: 1, id: fact.id, resolution: fact } : { ms, rank: 0, id: fact.id, input: fact };
  });
  return steps.sort((a, b) => a.ms - b.ms || a.rank - b.rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
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
