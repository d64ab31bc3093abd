/**
 * The inbox seq of the event with this id, as a scalar subquery for `i.seq = …` or
 * `inbox_seq = …`. Lookups by the event id alone go through here and nowhere else: on SQLite no
 * index starts with event_id (an index on a hash would put every ack's insert on a random page,
 * see migration 007), so this reads the narrow (pg_cno, event_id) index whole, never the table;
 * PostgreSQL finds it in its event_id index. Only an operator's lookups come here, never an ack.
 */
export const EVENT_SEQ = '(SELECT seq FROM inbox WHERE event_id = ?)';
