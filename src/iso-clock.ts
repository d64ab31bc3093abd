/**
 * `new Date().toISOString()`, built at most once per millisecond: a busy receiver stamps many
 * requests and log lines within one. The same millisecond gives the same text, so the answer
 * is exactly what `new Date().toISOString()` would have said.
 */
export function isoClock(): () => string {
  let lastMs = Number.NaN;
  let lastIso = '';
  return () => {
    const ms = Date.now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastIso = new Date(ms).toISOString();
    }
    return lastIso;
  };
}
