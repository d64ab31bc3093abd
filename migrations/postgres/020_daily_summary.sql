-- The day's money (settling the day): per KST day, mall and currency, what the order records book
-- on that day, kept as the ledger writes each changed record so that a month's summary reads a few
-- hundred rows however many orders there are.
--
-- Each order's bookings as last written (a pure function of its record: src/daily-summary/): when
-- its record changes, these are taken out of the daily totals and its new ones put in, so a
-- payment stays on its day when a later day cancels it, and an order re-read in another currency
-- moves whole. The day page lists an order by the days it has a booking on. currency '' is the
-- mall's default (LEDGER_DEFAULT_CURRENCY, read when the summary is).
CREATE TABLE summary_bookings (
  mall_id        TEXT NOT NULL,
  shop_order_no  TEXT NOT NULL,
  day            TEXT NOT NULL,
  currency       TEXT NOT NULL,
  kind           TEXT NOT NULL,
  method         TEXT NOT NULL,
  count          BIGINT NOT NULL,
  amount         BIGINT NOT NULL,
  PRIMARY KEY (mall_id, shop_order_no, day, currency, kind, method)
);
CREATE INDEX summary_bookings_day ON summary_bookings (day, mall_id, shop_order_no);

-- The status each order is counted in now: a change books -1 for it and +1 for the new one on the
-- change's day, so orders by status at a day's end is the running sum of those changes.
CREATE TABLE summary_order_status (
  mall_id        TEXT NOT NULL,
  shop_order_no  TEXT NOT NULL,
  status         TEXT NOT NULL,
  currency       TEXT NOT NULL,
  PRIMARY KEY (mall_id, shop_order_no)
);

-- The daily totals: each booking kind (method: a payment's method), and kind 'status' with
-- method the status and count the day's change in orders in it. Orders projected before this
-- migration are counted once `noti-receiver ledger rebuild` has run.
CREATE TABLE summary_daily (
  day            TEXT NOT NULL,
  mall_id        TEXT NOT NULL,
  currency       TEXT NOT NULL,
  kind           TEXT NOT NULL,
  method         TEXT NOT NULL,
  count          BIGINT NOT NULL,
  amount         BIGINT NOT NULL,
  PRIMARY KEY (day, mall_id, currency, kind, method)
);
