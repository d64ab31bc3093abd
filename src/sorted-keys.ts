/**
 * `Object.keys(record).sort()`: the same order (UTF-16 code units), by insertion sort, which for
 * the few dozen keys of a notification or a log record is several times faster than the native
 * sort's generic comparisons. Past 200 keys (a body may carry thousands) the native sort, whose
 * time does not grow with the square of the count.
 */
export function sortedKeys(record: object): string[] {
  const keys = Object.keys(record);
  if (keys.length > 200) return keys.sort();
  for (let i = 1; i < keys.length; i += 1) {
    const key = keys[i]!;
    let at = i;
    while (at > 0 && keys[at - 1]! > key) {
      keys[at] = keys[at - 1]!;
      at -= 1;
    }
    keys[at] = key;
  }
  return keys;
}
