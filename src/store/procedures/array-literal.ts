// A quote or a backslash inside a quoted element is written after a backslash.
const NEEDS_ESCAPE = /[\\"]/g;

/**
 * `values` as PostgreSQL's text form of an array (`{"a","b\"c",NULL,\\x00ff}`), exactly as the
 * pg driver writes an array parameter (`utils.prepareValue`: every element quoted, a byte array as
 * `\\x` and its hex). Made where the statement is built instead of by the driver where it is sent:
 * the ledger's batches are built on the projector's own thread but sent from the main thread's
 * pool, and there the driver's escaping of a long order's record and checkpoint (hundreds of KiB of
 * JSON, full of quotes) held the event loop that answers the gateway for milliseconds each batch.
 */
export function arrayLiteral(values: readonly (string | number | bigint | Uint8Array | null)[]): string {
  const elements = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) elements[i] = 'NULL';
    else if (typeof value === 'object') elements[i] = `\\\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
    else elements[i] = `"${String(value).replace(NEEDS_ESCAPE, '\\$&')}"`;
  }
  return `{${elements.join(',')}}`;
}
