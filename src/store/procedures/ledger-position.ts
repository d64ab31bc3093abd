import { allRows, get, oneTrip, type Procedure } from './procedure';

/** Positions in the two orders the ledger's inputs are stored in. */
export interface LedgerSeqs {
  inboxSeq: number;
  inputSeq: number;
}

export interface LedgerPosition {
  /** Where the projector is: every row up to these it has applied. */
  applied: LedgerSeqs;
  /** What is stored now: a read that began now reflects its inputs once `applied` has reached these. */
  stored: LedgerSeqs;
}

/**
 * The projector's position and the last stored positions, in one statement (one snapshot). Each is
 * an index search at its table's end, cheap at any size (SQLite runs it on the main thread).
 */
export function* ledgerPosition(): Procedure<LedgerPosition> {
  const row = yield* get<Record<'applied_inbox' | 'applied_input' | 'stored_inbox' | 'stored_input', number | string | null>>(
    `SELECT p.inbox_seq AS applied_inbox, p.input_seq AS applied_input,
       (SELECT MAX(seq) FROM inbox) AS stored_inbox, (SELECT MAX(seq) FROM ledger_inputs) AS stored_input
     FROM ledger_projector p WHERE p.id = 1`,
  );
  const n = (value: number | string | null | undefined) => Number(value ?? 0);
  return {
    applied: { inboxSeq: n(row?.applied_inbox), inputSeq: n(row?.applied_input) },
    stored: { inboxSeq: Math.max(n(row?.stored_inbox), n(row?.applied_inbox)), inputSeq: Math.max(n(row?.stored_input), n(row?.applied_input)) },
  };
}

export interface LedgerLag {
  /** Stored rows the projector has not passed yet (the inbox's, the ledger's other inputs'). */
  inputs: number;
  /** How long the oldest input among them has waited (0 when none waits). */
  seconds: number;
}

/**
 * How far the projector is behind the store at `nowMs` (readiness, the metric, the console): the
 * distance between its position and the tables' ends, and the age of the first input past it.
 * Index searches at any size: no count over what waits.
 */
export function* ledgerLag(nowMs: number): Procedure<LedgerLag> {
  const position = yield* ledgerPosition();
  const [notification, input] = (yield* oneTrip(
    allRows(`SELECT received_at AS at FROM inbox WHERE seq > ? AND source_ip <> 'internal' ORDER BY seq LIMIT 1`, position.applied.inboxSeq),
    allRows('SELECT recorded_at AS at FROM ledger_inputs WHERE seq > ? ORDER BY seq LIMIT 1', position.applied.inputSeq),
  )) as Array<Array<{ at: string }>>;
  const waiting = [notification![0]?.at, input![0]?.at].filter((t): t is string => t !== undefined).map((t) => Date.parse(t));
  const since = waiting.length === 0 ? nowMs : Math.min(...waiting);
  return {
    inputs: position.stored.inboxSeq - position.applied.inboxSeq + position.stored.inputSeq - position.applied.inputSeq,
    seconds: Math.max(0, (nowMs - since) / 1000),
  };
}
