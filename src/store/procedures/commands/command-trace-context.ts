import { get, type Procedure } from '../procedure';

/** The trace context kept with a command (tracing on), for the links of its later attempts. */
export function* commandTraceContext(shopTransactionId: string): Procedure<string | null> {
  const row = yield* get<{ trace_context: string | null }>('SELECT trace_context FROM commands WHERE shop_transaction_id = ?', shopTransactionId);
  return row?.trace_context ?? null;
}
