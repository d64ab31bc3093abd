const EAGER_UP_TO = 64;

/**
 * A record's list that is one of the fold's own lists, which a later input's step appends to in
 * place (`figures-step.ts`): the record shows it as it stood when the record was made. Copying it
 * then would make every input cost as much as the order's history; the copy is made when the list
 * is first read instead (JSON.stringify, a spread, a structured clone and a test's comparison all
 * read it), then kept as a plain property. Correct because the fold's lists only ever grow: what
 * stood at `length` stays.
 */
export function showAsItStands<T extends object>(record: T, key: keyof T & string, list: readonly unknown[]): void {
  const length = list.length;
  // A short list is copied now: cheaper than an accessor, which also turns the record into a
  // slower dictionary-shaped object for JSON.stringify and the copy to another thread.
  if (length <= EAGER_UP_TO) {
    (record as Record<string, unknown>)[key] = list.slice();
    return;
  }
  const settle = (target: T, value: unknown): void => {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  };
  // Redefining a property keeps its place among the record's keys, so its JSON is the same.
  Object.defineProperty(record, key, {
    enumerable: true,
    configurable: true,
    get(this: T) {
      const value = list.slice(0, length);
      settle(this, value);
      return value;
    },
    set(this: T, value: unknown) {
      settle(this, value);
    },
  });
}
