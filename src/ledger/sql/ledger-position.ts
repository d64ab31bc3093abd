import { allRows, get, oneTrip, type Procedure } from '../../store/procedures/procedure';

/** Positions in the orders the ledger's inputs are stored in. */
export interface LedgerSeqs {
  inboxSeq: number;
  inputSeq: number;
  conflictId: number;
  rejectionId: number;
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
  const row = yield* get<Record<string, number | string | null>>(
    `SELECT p.inbox_seq AS applied_inbox, p.input_seq AS applied_input, p.conflict_id AS applied_conflict, p.rejection_id AS applied_rejection,
       (SELECT MAX(seq) FROM inbox) AS stored_inbox, (SELECT MAX(seq) FROM ledger_inputs) AS stored_input,
       (SELECT MAX(id) FROM conflicts) AS stored_conflict, (SELECT MAX(id) FROM rejections) AS stored_rejection
     FROM ledger_projector p WHERE p.id = 1`,
  );
  const n = (name: string) => Number(row?.[name] ?? 0);
  const at = (side: 'applied' | 'stored'): LedgerSeqs => ({
    inboxSeq: n(`${side}_inbox`), inputSeq: n(`${side}_input`), conflictId: n(`${side}_conflict`), rejectionId: n(`${side}_rejection`),
  });
  const applied = at('applied');
  const stored = at('stored');
  return {
    applied,
    // An upgraded store's projector starts past what it held: nothing stored is ever behind it.
    stored: {
      inboxSeq: Math.max(stored.inboxSeq, applied.inboxSeq), inputSeq: Math.max(stored.inputSeq, applied.inputSeq),
      conflictId: Math.max(stored.conflictId, applied.conflictId), rejectionId: Math.max(stored.rejectionId, applied.rejectionId),
    },
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
    allRows(`SELECT received_at AS at FROM inbox WHERE seq > ? AND origin = 'gateway' ORDER BY seq LIMIT 1`, position.applied.inboxSeq),
    allRows('SELECT recorded_at AS at FROM ledger_inputs WHERE seq > ? ORDER BY seq LIMIT 1', position.applied.inputSeq),
  )) as Array<Array<{ at: string }>>;
  const waiting = [notification![0]?.at, input![0]?.at].filter((t): t is string => t !== undefined).map((t) => Date.parse(t));
  const since = waiting.length === 0 ? nowMs : Math.min(...waiting);
  return {
    inputs: behind(position.stored, position.applied),
    seconds: Math.max(0, (nowMs - since) / 1000),
  };
}

/** How many stored rows lie between `applied` and `target` (internal inbox entries included). */
export function behind(target: LedgerSeqs, applied: LedgerSeqs): number {
  return Math.max(0, target.inboxSeq - applied.inboxSeq) + Math.max(0, target.inputSeq - applied.inputSeq)
    + Math.max(0, target.conflictId - applied.conflictId) + Math.max(0, target.rejectionId - applied.rejectionId);
}
