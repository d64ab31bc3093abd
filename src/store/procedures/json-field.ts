import type { Dialect } from './procedure';

/**
 * One field of a JSON text column, read by the database, as SQL for `dialect`: SQLite's
 * `json_extract(col, '$.a.b')`, PostgreSQL's `col::json->'a'->>'b'`. A string field comes as text
 * from both, a missing one (or a missing step to it) as SQL NULL; a number or a boolean comes as a
 * number from SQLite and as text from PostgreSQL (`jsonFlag` reads a boolean on both).
 *
 * Both the column and the path are pasted into the statement's text: they are constants of the
 * code that calls this, never input. Each must be a plain name, which needs no quoting in a
 * JSON path or an SQL string and keeps `::json` bound to the column alone; anything else throws.
 */
export function jsonField(dialect: Dialect, column: string, path: readonly string[]): string {
  checkNames(column, path);
  if (dialect === 'sqlite') return `json_extract(${column}, '$.${path.join('.')}')`;
  const steps = path.map((name) => `'${name}'`);
  const last = steps.pop();
  return `${column}::json${steps.map((step) => `->${step}`).join('')}->>${last}`;
}

/**
 * A true/false field (e.g. a record's `simulated`), false when missing. SQLite gives JSON's true
 * and false as 1 and 0, PostgreSQL's `->>` as the text 'true' or 'false', cast back to a boolean:
 * the caller reads either with `Boolean(…)`.
 */
export function jsonFlag(dialect: Dialect, column: string, path: readonly string[]): string {
  return dialect === 'sqlite'
    ? `coalesce(${jsonField(dialect, column, path)}, 0)`
    : `coalesce((${jsonField(dialect, column, path)})::boolean, false)`;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const COLUMN = /^(?:[A-Za-z_][A-Za-z0-9_]*\.)?[A-Za-z_][A-Za-z0-9_]*$/;

function checkNames(column: string, path: readonly string[]): void {
  if (!COLUMN.test(column)) throw new Error(`not a column name to read JSON from: ${JSON.stringify(column)}`);
  if (path.length === 0) throw new Error('a JSON field needs a path of at least one name');
  for (const name of path) {
    if (!NAME.test(name)) throw new Error(`not a plain JSON field name: ${JSON.stringify(name)}`);
  }
}
