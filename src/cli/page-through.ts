/** Runs `page` from the start until a page says there is no next one (a maintenance pass over a whole table, a transaction per page). */
export async function pageThrough<P extends { next: number | null }>(page: (after: number | null) => Promise<P>, each: (result: P) => void): Promise<void> {
  let after: number | null = null;
  do {
    const result = await page(after);
    each(result);
    after = result.next;
  } while (after !== null);
}
