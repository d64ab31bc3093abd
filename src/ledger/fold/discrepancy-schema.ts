import { z } from 'zod';
import { DISCREPANCY_KINDS } from './order-record';

const iso = (description: string) => z.string().meta({ description, example: '2026-11-21T03:00:00.000Z' });

/** A discrepancy as the internal API answers it and as the ledger's events carry it. */
export const discrepancySchema = z.object({
  id: z.string().meta({ example: 'dsc_0f1e2d3c4b5a69788796a5b4c3d2e1f0' }),
  kind: z.enum(DISCREPANCY_KINDS),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.null()])).meta({ description: 'the figures that show it, e.g. expected and notified' }),
  eventIds: z.array(z.string()).meta({ description: 'the notifications that show it' }),
  openedAt: iso('when it opened (a stored time, or one plus the grace period)'),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable().meta({ description: 'who resolved it; `ledger` when its condition stopped holding' }),
  note: z.string().nullable(),
}).meta({ id: 'Discrepancy' });
