-- A cancel counts against its payment from the moment its command is recorded, so the check that
-- a new cancel fits in what is left reads the payment's other cancels: they are found by the
-- payment's pgCno, kept in a column of its own (NULL for commands that cancel nothing).
ALTER TABLE commands ADD COLUMN pg_cno TEXT;
UPDATE commands SET pg_cno = json_extract(request_json, '$.pgCno')
  WHERE kind IN ('wallet-b.cancel', 'van.cancel') AND json_type(request_json, '$.pgCno') = 'text'
    AND json_extract(request_json, '$.pgCno') <> '';
CREATE INDEX commands_payment ON commands (pg_cno) WHERE pg_cno IS NOT NULL;
