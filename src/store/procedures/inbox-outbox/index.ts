/**
 * The notifications' inbox and outbox: recording, the relay's head and marks, requeues, and the
 * reads of stored events. One line per verb: under `inboxOutboxWrites` or `inboxOutboxReads` (see
 * ../index.ts).
 */
import { backlog } from './backlog';
import { conflictsOfEvent } from './conflicts-of-event';
import { getConflict } from './get-conflict';
import { getEvent } from './get-event';
import { getRejection } from './get-rejection';
import { listConflictLines, listConflicts } from './list-conflicts';
import { listDeliveryAttempts } from './list-delivery-attempts';
import { listEvents } from './list-events';
import { listRejectionLines, listRejections } from './list-rejections';
import { markDead } from './mark-dead';
import { markDelivered } from './mark-delivered';
import { markRejectionReprocessed } from './mark-rejection-reprocessed';
import { markRetry } from './mark-retry';
import { nextPending } from './next-pending';
import { probeWrite } from './probe-write';
import { recordNotification } from './record-notification';
import { recordRejection } from './record-rejection';
import { requeue } from './requeue';
import { requeueDead } from './requeue-dead';

export const inboxOutboxWrites = {
  recordNotification,
  recordRejection,
  markDelivered,
  markRetry,
  markDead,
  requeue,
  requeueDead,
  markRejectionReprocessed,
  probeWrite,
} as const;

export const inboxOutboxReads = {
  nextPending,
  backlog,
  listEvents,
  getEvent,
  listRejections,
  listRejectionLines,
  getRejection,
  listConflicts,
  listConflictLines,
  getConflict,
  conflictsOfEvent,
  listDeliveryAttempts,
} as const;
