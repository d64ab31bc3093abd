-- The operator an audit row names, apart from where they acted: an actor is `<operator> (<where>)`
-- (`kim (10.0.0.7)`, `ops-lead (cli)`) or a bare name (`cli`), and a name may itself end in
-- ` (…)`, so the Audit page's operator filter matches this column exactly, never the actor by prefix.
-- Rows written before it: the operator is everything before the actor's last ` (`, when the actor
-- ends with `)`.
ALTER TABLE audit_log ADD COLUMN operator TEXT;
UPDATE audit_log SET operator = regexp_replace(actor, ' \([^(]*\)$', '');
CREATE INDEX audit_log_operator ON audit_log (operator, id);
