-- Closing a KST day, and the gateway's settlement statement.
--
-- A close fixes what a day shows: the figures the day view, the summary, the API and the day's
-- export showed at that moment are kept whole with the close (figures_json), written in the
-- transaction that records it, with the day page's list of orders as it stood (orders_json).
-- mall_id '' closes the day for every mall of the store.
CREATE TABLE summary_closes (
  day           TEXT NOT NULL,
  mall_id       TEXT NOT NULL,
  closed_at     TEXT NOT NULL,
  closed_by     TEXT NOT NULL,
  figures_json  TEXT NOT NULL,
  orders_json   TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (day, mall_id)
);

-- What moved a closed day's money after it was closed, booked on the KST day it arrived (day) and
-- naming the day it adjusts: summary_daily keeps every day's live sums (a rebuild still equals
-- the records), and a closed day's live sums are its kept figures plus its adjustments.
CREATE TABLE summary_adjustments (
  day          TEXT NOT NULL,
  adjusts_day  TEXT NOT NULL,
  mall_id      TEXT NOT NULL,
  currency     TEXT NOT NULL,
  kind         TEXT NOT NULL,
  method       TEXT NOT NULL,
  count        BIGINT NOT NULL,
  amount       BIGINT NOT NULL,
  PRIMARY KEY (day, adjusts_day, mall_id, currency, kind, method)
);
CREATE INDEX summary_adjustments_adjusted ON summary_adjustments (adjusts_day, mall_id);

-- The settlement statement's rows as an import reads them, in minor units; one import's rows are
-- replaced whole when it is stored again.
CREATE TABLE settlement_rows (
  import_id        TEXT NOT NULL,
  mall_id          TEXT NOT NULL,
  line             INTEGER NOT NULL,
  pg_cno           TEXT NOT NULL,
  cancel_pg_cno    TEXT,
  shop_order_no    TEXT,
  gross            BIGINT NOT NULL,
  fee              BIGINT NOT NULL,
  fee_vat          BIGINT NOT NULL,
  payout           BIGINT NOT NULL,
  payout_day       TEXT NOT NULL,
  transaction_day  TEXT,
  PRIMARY KEY (import_id, line)
);
CREATE INDEX settlement_rows_payout_day ON settlement_rows (payout_day, mall_id);
CREATE INDEX settlement_rows_transaction_day ON settlement_rows (transaction_day, mall_id);
