import { z } from 'zod';
import { DISCREPANCY_KINDS } from '../../ledger/fold/order-record';
import { listedDiscrepancySchema } from './ledger-schema';
import { isCalendarDay } from '../../calendar-day';

const day = (description: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/).meta({ description, example: '2026-11-20' });
const won = (description: string) => z.number().int().meta({ description: `${description}, in won (KRW minor units)`, example: 12000 });
const byKind = z.partialRecord(z.enum(DISCREPANCY_KINDS), z.number().int()).meta({ description: 'counts by discrepancy kind' });

export const importQuery = z.object({
  mall: z.string().min(1).max(8).meta({ description: 'the mall (mallId) the list is of', example: 'T0001234' }),
  fileName: z.string().min(1).max(255).meta({ description: "the file's name as the portal gave it, kept with the import", example: 'transactions-20261120.xlsx' }),
});

const importSchema = z.object({
  id: z.string().meta({ description: "of the file's SHA-256 and the mall: the same file again is the same import", example: 'gwi_0f1e2d3c4b5a69788796a5b4c3d2e1f0' }),
  sha256: z.string(),
  kind: z.enum(['transactions', 'settlement']),
  fileName: z.string(),
  mallId: z.string(),
  firstDay: day('the first KST day its rows cover'),
  lastDay: day('the last KST day its rows cover'),
  rowCount: z.number().int(),
  orderCount: z.number().int().meta({ description: 'orders the ledger was given what the list says of them' }),
  importedBy: z.string(),
  importedAt: z.string(),
}).meta({ id: 'ReconciliationImport' });

export const importSummarySchema = z.object({
  import: importSchema,
  alreadyImported: z.boolean().meta({ description: 'the same file was imported for the mall before: nothing changed' }),
  rows: z.object({ payments: z.number().int(), cancels: z.number().int() }),
  unplaced: z.number().int().meta({ description: 'rows naming no order number whose pgCno was never notified: stored, matched with no order' }),
  differences: byKind.nullable().meta({ description: 'open differences on the days covered once the ledger matched the list; null while it is still matching' }),
}).meta({ id: 'ReconciliationImportSummary' });

export const fileProblemsSchema = z.object({
  error: z.string(),
  problems: z.array(z.object({
    code: z.string().meta({ example: 'missing_column' }),
    line: z.number().int().nullable(),
    column: z.string().nullable(),
    message: z.string(),
  })),
}).meta({ id: 'FileProblems' });

export const dayParams = z.object({ day: day('a KST day').refine(isCalendarDay, 'not a calendar day') });
export const dayQuery = z.object({ mallId: z.string().optional().meta({ description: 'one mall (default: every mall served)' }) });

const tally = z.object({ count: z.number().int(), amount: won('their sum') });

const unplacedRowSchema = z.object({
  line: z.number().int().meta({ description: "the file's row number" }),
  kind: z.enum(['payment', 'cancel']),
  pgCno: z.string(),
  cancelPgCno: z.string().nullable(),
  amount: won('the amount the file lists'),
  status: z.enum(['approved', 'cancelled', 'partially_cancelled', 'failed', 'other']),
  at: z.string().meta({ description: 'when the gateway made the transaction, ISO UTC' }),
  resendPath: z.string().meta({ description: "where the gateway's merchant portal sends a notification again", example: 'transaction management → notification inquiry' }),
}).meta({ id: 'UnplacedListRow' });

export const reconciliationDaySchema = z.object({
  days: z.array(z.object({
    day: z.string(),
    mallId: z.string(),
    currency: z.literal('KRW'),
    files: z.array(importSchema.extend({
      governing: z.boolean().meta({ description: 'imported last for the day: its rows are the ones that count' }),
      rowsOfDay: z.number().int(),
    })),
    rows: z.object({ payments: tally, cancels: tally }).meta({ description: "the governing file's rows of the day" }),
    matched: z.object({ payments: tally, cancels: tally }).meta({ description: 'those no open difference names' }),
    differences: z.object({
      open: byKind.meta({ description: 'counts by discrepancy kind; notification_missing counts the unplaced rows too' }),
      resolved: byKind,
      listed: z.array(listedDiscrepancySchema).meta({ description: 'open ones first, then by opening; at most 100' }),
    }),
    unplaced: z.array(unplacedRowSchema).meta({
      description: "the governing file's rows of the day that name no order number and whose pgCno was never notified (a failed one aside): each a lost notification, in no order until the gateway sends it again; by line, at most 100",
    }),
  })),
}).meta({ id: 'ReconciliationDays' });
