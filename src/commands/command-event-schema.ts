import { z } from 'zod';
import { vanApprovalRecordSchema, walletCancelRecordSchema } from './command-record-schema';

/**
 * A command's final state on the internal queue: the one source of the type command-event.ts
 * builds and of the queue contract (docs/asyncapi.json). `data` is the command's record, as
 * GET /v1/commands/{shopTransactionId} answers it.
 */
const commandEventOf = <T extends string, R extends z.ZodType>(type: T, record: R) => z.object({
  id: z.string().meta({ description: "stable for this final state of the command: be idempotent on it", example: 'evt_cmd_0f1e2d3c4b5a69788796a5b4c3d2e1f0' }),
  type: z.literal(type),
  mallId: z.string(),
  shopTransactionId: z.string().meta({ description: "the command's idempotency key" }),
  occurredAt: z.string().meta({ description: 'when the command reached this state (UTC)', example: '2026-11-22T01:02:04.012Z' }),
  receivedAt: z.string().meta({ description: 'the same time: the receiver made the event then' }),
  data: record,
});

export const walletCancelSucceededSchema = commandEventOf('wallet.cancel.succeeded', walletCancelRecordSchema);
export const walletCancelFailedSchema = commandEventOf('wallet.cancel.failed', walletCancelRecordSchema);
export const vanNetCancelFailedSchema = commandEventOf('van.net_cancel.failed', vanApprovalRecordSchema);

export type CommandEventPayload = z.infer<typeof walletCancelSucceededSchema | typeof walletCancelFailedSchema | typeof vanNetCancelFailedSchema>;
