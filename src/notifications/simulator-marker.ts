/**
 * The field `npm run simulate` adds to every notification it sends, so the ledger can tell its
 * made-up orders from real ones and the discrepancy alert need not wake anyone for them. The
 * gateway builds its notifications from its own fields and never passes an unknown one through,
 * so no real payment carries it; a `shopValue` field would not do, since the shop's payment
 * request (which a buyer's browser can alter) chooses those.
 */
export const SIMULATOR_MARKER = { field: 'simulator', value: 'noti-receiver' } as const;

export function isSimulated(data: Readonly<Record<string, unknown>>): boolean {
  return data[SIMULATOR_MARKER.field] === SIMULATOR_MARKER.value;
}
