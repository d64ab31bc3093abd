-- An input of the ledger it could not apply (its stored text in ledger_inputs does not read as a
-- fact): kept, so its order stays `ledger_error` through the order's later inputs, until a
-- computation of the order applies it (`ledger rebuild` computes every order; a repaired input is
-- applied the next time its order is computed), which deletes the row. The input itself stays in
-- ledger_inputs, where a repair corrects it.
CREATE TABLE ledger_failed_inputs (
  input_seq      BIGINT PRIMARY KEY,
  mall_id        TEXT NOT NULL,
  shop_order_no  TEXT NOT NULL,
  error          TEXT NOT NULL,
  failed_at      TEXT NOT NULL
);
CREATE INDEX ledger_failed_inputs_order ON ledger_failed_inputs (mall_id, shop_order_no);
