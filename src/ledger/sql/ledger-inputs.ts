import type { LedgerFact, OrderKey } from '../fold/ledger-facts';
import type { NormalizedEvent } from '../../notifications/normalized-event';
import { ledgerFactOf } from '../fold/stored-fact';
import type { OrderFact } from '../projection/loaded-order';
import { jsonRows } from '../../store/procedures/json-rows';
import { all, allRows, changes, dialect, inputsChanged, oneTrip, rowInserts, sqlBySize, valueRows, type Param, type Procedure } from '../../store/procedures/procedure';

const INPUT_COLUMNS = 4;
const INSERT_INPUTS = sqlBySize((rows) => `INSERT INTO ledger_inputs (mall_id, shop_order_no, fact_json, recorded_at) VALUES ${valueRows(rows, INPUT_COLUMNS)}`);
// PostgreSQL: one fixed text over one JSON parameter of the rows (`jsonRows`), prepared once per
// connection, where a VALUES list of an import's page is a new text of thousands of parameters,
// parsed and planned again at each page. The seqs are drawn in the rows' order (ORDINALITY).
const PG_INPUTS = jsonRows([['mall_id', 'text'], ['shop_order_no', 'text'], ['fact_json', 'text'], ['recorded_at', 'text']]);
const PG_INSERT_INPUTS = `INSERT INTO ledger_inputs (mall_id, shop_order_no, fact_json, recorded_at)
  SELECT r.mall_id, r.shop_order_no, r.fact_json, r.recorded_at FROM ${PG_INPUTS.from} AS r ORDER BY r.n`;

/**
 * Stores the ledger's inputs that are not notifications (an expectation, a wallet trade or
 * cancellation, a resolution) in the caller's transaction, for the projector to apply in the order
 * they were stored. Answers the highest input seq now stored (what a caller that must
 * read its own write waits for), null when there was nothing to store.
 */
export function* storeLedgerInputs(facts: readonly OrderFact[]): Procedure<number | null> {
  if (facts.length === 0) return null;
  const rows = facts.map(({ order, fact, json }): Param[] => [order.mallId, order.shopOrderNo, json ?? JSON.stringify(fact), fact.recordedAt]);
  // Orders the inputs' seqs and wakes the projector (every replica's, by the same NOTIFY as the
  // relay's) after the commit.
  yield* inputsChanged();
  const inserts = (yield* dialect()) === 'postgres' ? [changes(PG_INSERT_INPUTS, PG_INPUTS.rowsParam(rows))] : rowInserts(INSERT_INPUTS, INPUT_COLUMNS, rows);
  yield* oneTrip(...inserts);
  const [last] = yield* all<{ seq: number | string }>('SELECT MAX(seq) AS seq FROM ledger_inputs');
  return Number(last!.seq);
}

/**
 * The order's facts stored but not applied yet (the projector is behind): a decision that must see
 * every input stored before it (an expectation's 409, a resolution given twice) reads them beside
 * the applied ones. Cheap while the projector keeps up: both searches start at its position.
 */
export function* pendingFacts(order: OrderKey): Procedure<LedgerFact[]> {
  const position = 'SELECT inbox_seq, input_seq FROM ledger_projector WHERE id = 1';
  const [inputs, notifications] = (yield* oneTrip(
    allRows(`SELECT fact_json FROM ledger_inputs WHERE seq > (SELECT input_seq FROM (${position}) p) AND mall_id = ? AND shop_order_no = ? ORDER BY seq`, order.mallId, order.shopOrderNo),
    allRows(`SELECT event_json FROM inbox WHERE shop_order_no = ? AND mall_id = ? AND seq > (SELECT inbox_seq FROM (${position}) p) AND origin = 'gateway' ORDER BY seq`, order.shopOrderNo, order.mallId),
  )) as [Array<{ fact_json: string }>, Array<{ event_json: string }>];
  const facts: LedgerFact[] = [];
  for (const row of inputs) facts.push(JSON.parse(row.fact_json) as LedgerFact);
  for (const row of notifications) {
    const json = ledgerFactOf(JSON.parse(row.event_json) as NormalizedEvent);
    if (json !== null) facts.push(JSON.parse(json) as LedgerFact);
  }
  return facts;
}
