import type { Param } from './procedure';

/** A column's PostgreSQL type as the rows' JSON carries it: text and numbers as JSON values, bytea as hex text. */
export type JsonColumnType = 'text' | 'bigint' | 'integer' | 'bytea';

/** The rows of one multi-row write on PostgreSQL, read from one JSON parameter. */
export interface JsonRows {
  /**
   * `(SELECT … FROM jsonb_array_elements(?::jsonb) WITH ORDINALITY …)`: a subquery of the named,
   * typed columns and `n`, each row's place in the array from 1 (`ORDER BY r.n` where the statement
   * draws a sequence in row order). One fixed text whatever the row count: prepared once per
   * connection. Its one `?` is the parameter `rowsParam` makes.
   */
  from: string;
  /** The rows (each one value per column, in the columns' order) as that parameter. */
  rowsParam: (rows: readonly (readonly Param[])[]) => string;
}

/**
 * One JSON parameter for a multi-row write on PostgreSQL: an array of rows, each an array of its
 * values, read by `jsonb_array_elements` and `->>` per column. The thread that builds the statement
 * writes it with `JSON.stringify`, where an array per column (`columnArrays`) escapes every element
 * in JavaScript; the server reads either in about the same time. `jsonb` rather than `json`: a json
 * parameter is parsed when bound and again by each function that reads it; `jsonb_to_recordset`
 * is slower than `->>` per column (bench/json-params.ts). Column names and types are constants of
 * the calling statement, pasted into its text; anything but a plain name throws.
 */
export function jsonRows(columns: ReadonlyArray<readonly [name: string, type: JsonColumnType]>): JsonRows {
  const fields = columns.map(([name, type], i) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain column name: ${name}`);
    const text = `e->>${i}`;
    return `${type === 'text' ? text : type === 'bytea' ? `decode(${text}, 'hex')` : `(${text})::${type}`} AS ${name}`;
  });
  return {
    from: `(SELECT ${fields.join(', ')}, a.n FROM jsonb_array_elements(?::jsonb) WITH ORDINALITY AS a (e, n))`,
    rowsParam: (rows) => jsonbSafe(JSON.stringify(needsConversion(rows) ? converted(rows) : rows)),
  };
}

/** A bigint or bytes cell, which JSON.stringify would refuse or write as an object. */
function needsConversion(rows: readonly (readonly Param[])[]): boolean {
  for (const row of rows) for (const cell of row) if (typeof cell === 'bigint' || (typeof cell === 'object' && cell !== null)) return true;
  return false;
}

function converted(rows: readonly (readonly Param[])[]): unknown[][] {
  return rows.map((row) => row.map((cell) => {
    if (typeof cell === 'bigint') return cell.toString();
    if (cell instanceof Uint8Array) return Buffer.from(cell.buffer, cell.byteOffset, cell.byteLength).toString('hex');
    if (Array.isArray(cell)) throw new Error('a JSON row holds scalars, not arrays');
    return cell;
  }));
}

// An escape that jsonb refuses: U+0000 (TEXT cannot hold it) or a lone surrogate (JSON.stringify
// escapes only those; a pair is written as itself), after an even run of backslashes (an odd run
// is an escaped backslash followed by plain text).
const REFUSED_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/g;
const MAY_HOLD_REFUSED = /\\u(?:0000|d[89a-f])/;

/**
 * Such escapes as U+FFFD, as the driver binds text (pool.ts replaces U+0000; a lone surrogate
 * becomes U+FFFD in UTF-8): a gateway field carrying one must not make the batch unwritable.
 */
function jsonbSafe(json: string): string {
  return MAY_HOLD_REFUSED.test(json) ? json.replace(REFUSED_ESCAPE, '$1\\ufffd') : json;
}
