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
  /** Stored inputs the projector has not applied yet (counted up to LAG_COUNT_LIMIT). */
  inputs: number;
  /** How long the oldest of them has waited (0 when none waits). */
  seconds: number;
}

/** Past this many the count stops: a lag that large is read in seconds, and counting it must stay cheap. */
export const LAG_COUNT_LIMIT = 100_000;

/** How far the projector is behind the store at `nowMs` (readiness, the metric, the console). */
export function* ledgerLag(nowMs: number): Procedure<LedgerLag> {
  const position = 'SELECT inbox_seq, input_seq FROM ledger_projector WHERE id = 1';
  const [notifications, inputs] = (yield* oneTrip(
    allRows(`SELECT COUNT(*) AS n, MIN(received_at) AS oldest FROM (SELECT received_at FROM inbox
      WHERE seq > (SELECT inbox_seq FROM (${position}) p) AND source_ip <> 'internal' ORDER BY seq LIMIT ${LAG_COUNT_LIMIT}) behind`),
    allRows(`SELECT COUNT(*) AS n, MIN(recorded_at) AS oldest FROM (SELECT recorded_at FROM ledger_inputs
      WHERE seq > (SELECT input_seq FROM (${position}) p) ORDER BY seq LIMIT ${LAG_COUNT_LIMIT}) behind`),
  )) as Array<Array<{ n: number | string; oldest: string | null }>>;
  const oldest = [notifications![0]!.oldest, inputs![0]!.oldest].filter((t): t is string => t !== null).map((t) => Date.parse(t));
  const since = oldest.length === 0 ? nowMs : Math.min(...oldest);
  return {
    inputs: Math.min(LAG_COUNT_LIMIT, Number(notifications![0]!.n) + Number(inputs![0]!.n)),
    seconds: Math.max(0, (nowMs - since) / 1000),
  };
}
