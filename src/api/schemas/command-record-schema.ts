import { z } from 'zod';
import { COMMAND_KINDS, COMMAND_STATES } from '../../commands/command-record';

export const commandState = z.enum(COMMAND_STATES);

export const commandRecordSchema = z
  .object({
    command: z.enum(COMMAND_KINDS),
    shopTransactionId: z.string(),
    mallId: z.string(),
    state: commandState,
    attempts: z.number().int(),
    request: z.record(z.string(), z.unknown()).meta({ description: 'as last sent' }),
    response: z.record(z.string(), z.unknown()).nullable().meta({ description: "the gateway's last JSON answer" }),
    lastError: z.string().nullable().meta({ example: 'time-out after 30000 ms' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'CommandRecord' });

export const apiErrorSchema = z
  .object({
    error: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Error' });

export const commandListQuery = z.object({
  state: commandState.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
