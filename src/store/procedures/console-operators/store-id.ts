import { get, type Procedure } from '../procedure';

/** The random id written when the database was created (migration 018): the same whatever URL names it. */
export function* storeId(): Procedure<string | null> {
  const row = yield* get<{ storeId: string }>(`SELECT store_id AS "storeId" FROM store_identity WHERE id = 1`);
  return row?.storeId ?? null;
}
