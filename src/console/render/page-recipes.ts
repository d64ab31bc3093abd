import { compareConflict } from '../../operator/conflict-comparison';
import type { ConflictLink, ConflictRow, DeliveryAttempt, EventDetail, RejectionRow } from '../../store/store';
import type { MaskMemo } from '../../observability/mask';
import { bodyView } from '../body-view';
import { auditPage } from '../pages/audit-page';
import { conflictPage, conflictsPage } from '../pages/conflicts-page';
import { eventPage } from '../pages/event-page';
import { eventsPage } from '../pages/events-page';
import { internalEventPage } from '../pages/internal-event-page';
import type { Viewer } from '../pages/layout';
import { orderPage } from '../pages/order-page';
import { rejectionPage, rejectionsPage } from '../pages/rejections-page';

/**
 * The pages whose work grows with what a notification, an order or a table holds (masking a
 * 64 KB field, escaping hundreds of fields, an order's thousands of cancels): drawn on the page
 * thread (page-worker.ts), never on the event loop that acks the gateway. Each takes the viewer
 * and the data as the store gave them (what a worker message can carry) and does all of its work
 * there, the masking of the body included.
 */
export const OFF_LOOP_PAGES = {
  event: (viewer: Viewer, detail: EventDetail, conflicts: ConflictLink[], attempts: DeliveryAttempt[], notice: string | null, currency: string): string => {
    // One memo for the page: the body's fields and the normalized event's data are the same texts.
    const memo: MaskMemo = new Map();
    return eventPage(viewer, detail, bodyView(detail.rawBody, detail.contentType, memo), conflicts, attempts, notice, currency, memo);
  },
  internalEvent: internalEventPage,
  events: eventsPage,
  rejection: (viewer: Viewer, row: RejectionRow, reasons: string[] | null, notice: string | null): string =>
    rejectionPage(viewer, row, bodyView(row.rawBody, row.contentType), reasons, notice),
  rejections: rejectionsPage,
  conflict: (viewer: Viewer, conflict: ConflictRow, stored: EventDetail | null): string =>
    conflictPage(viewer, conflict, stored, compareConflict(conflict, stored)),
  conflicts: conflictsPage,
  audit: auditPage,
  order: orderPage,
};

export type OffLoopPages = typeof OFF_LOOP_PAGES;
export type PageName = keyof OffLoopPages;
/** A page's arguments after the viewer. */
export type PageArgs<K extends PageName> = OffLoopPages[K] extends (viewer: Viewer, ...args: infer A) => string ? A : never;
