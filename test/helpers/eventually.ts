/**
 * Polls `probe` until it yields a value (anything but undefined or false) and returns it;
 * throws, naming `what`, once `timeoutMs` has passed.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
