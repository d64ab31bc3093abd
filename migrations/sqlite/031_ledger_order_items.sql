-- An order's record is no longer rewritten whole at each input: its lists that grow with the
-- order's history (payments, cancels, deposits, refundsFailed, cancellationsRequested, events,
-- discrepancies) are rows here, one item a row by its list and place, and ledger_orders.record_json
-- keeps the header: the record with each of those lists replaced by its length, in its place among
-- the keys (src/ledger/projection/record-items.ts). A write compares the record's items with the
-- stored ones and writes each list from its first item that differs: an input that comes in the
-- gateway's time order appends its new items and changes no earlier one, so it writes those alone.
-- None of the lists is append-only: an input out of order lands inside the time-ordered ones, a
-- payment or deposit is flagged cancelled once its cancels took it all, a cancel's amount and
-- remainder follow a later report, a requested cancel's state moves, an open discrepancy shows the
-- current figures and its resolution; such an input rewrites its list from there.
--
-- WITHOUT ROWID: an order's items lie together in the key's b-tree, read as one range in the order
-- of the record, and an append writes one index. order_id as ledger_facts (no foreign key: orders
-- are never deleted). The upgrade is lazy, per order: a record stored whole reads as it was stored
-- (its header holds its lists as arrays) and is written as header and items when next projected.
CREATE TABLE ledger_order_items (
  order_id   INTEGER NOT NULL,
  list       TEXT NOT NULL,
  item_no    INTEGER NOT NULL,
  item_json  TEXT NOT NULL,
  PRIMARY KEY (order_id, list, item_no)
) WITHOUT ROWID;
