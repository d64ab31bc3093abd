-- Same column and meaning as migrations/sqlite/024_command_payment.sql.
-- A cancel counts against its payment from the moment its command is recorded, so the check that
-- a new cancel fits in what is left reads the payment's other cancels: they are found by the
-- payment's pgCno, kept in a column of its own (NULL for commands that cancel nothing).
ALTER TABLE commands ADD COLUMN pg_cno TEXT;
UPDATE commands SET pg_cno = request_json::jsonb ->> 'pgCno'
  WHERE kind IN ('wallet-b.cancel', 'van.cancel') AND jsonb_typeof(request_json::jsonb -> 'pgCno') = 'string'
    AND request_json::jsonb ->> 'pgCno' <> '';
CREATE INDEX commands_payment ON commands (pg_cno) WHERE pg_cno IS NOT NULL;
