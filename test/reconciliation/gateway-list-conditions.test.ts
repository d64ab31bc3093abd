import type { GatewayTransactionRow } from '../../src/reconciliation/file/gateway-rows';
import type { GatewayListingFact, LedgerFact } from '../../src/ledger/fold/ledger-facts';
import { listingFacts } from '../../src/reconciliation/matching/listing-facts';
import { ORDER, approval, minute, partialCancel } from '../ledger/ledger-fixtures';
import { given, openKinds } from '../ledger/ledger-specification';

const DAY = '2026-11-21';

/** A row as the reader gives it, dated `at` minutes after the fixtures' base (that KST day). */
function row(o: Omit<Partial<GatewayTransactionRow>, 'at'> & { pgCno: string; amount: number; at: number }): GatewayTransactionRow {
  return {
    line: 2, cancelPgCno: null, kind: 'payment', shopOrderNo: ORDER.shopOrderNo, approvalNo: null, cancelledAmount: null,
    status: 'approved', statusText: '승인', method: null, ...o, at: minute(o.at),
  };
}

/** The order's fact of one import of `rows`, imported `received` minutes after the base. */
function listing(rows: GatewayTransactionRow[], o: { received: number; id?: string; firstDay?: string; lastDay?: string }): GatewayListingFact {
  const list = { id: o.id ?? `gwi_${o.received}`, mallId: ORDER.mallId, firstDay: o.firstDay ?? DAY, lastDay: o.lastDay ?? DAY, at: minute(o.received) };
  return listingFacts(list, rows.map((r) => ({ order: ORDER, row: r })), [ORDER])[0]!.fact;
}

const paid = approval({ pgCno: 'PG-1', amount: 30000, at: 1 });

describe("the gateway's transaction list against the order's notifications", () => {
  it('a payment listed with its amount and status is matched: nothing opens', () => {
    given(paid).when(listing([row({ pgCno: 'PG-1', amount: 30000, at: 1 })], { received: 600 })).then((record) => {
      expect(record.discrepancies).toEqual([]);
      expect(record.status).toBe('paid');
    });
  });

  it('another amount in the list is gateway_amount_differs, with both amounts', () => {
    given(paid).when(listing([row({ pgCno: 'PG-1', amount: 3000, at: 1 })], { received: 600 })).then((record) => {
      expect(openKinds(record)).toEqual(['gateway_amount_differs']);
      expect(record.discrepancies[0]!.details).toMatchObject({ pgCno: 'PG-1', listedAmount: 3000, notifiedAmount: 30000, day: DAY });
      expect(record.discrepancies[0]!.openedAt).toBe(minute(600));
    });
  });

  it('a payment the list says is cancelled while the ledger holds it is gateway_status_differs', () => {
    given(paid).when(listing([row({ pgCno: 'PG-1', amount: 30000, at: 1, status: 'cancelled' })], { received: 600 })).then((record) => {
      expect(openKinds(record)).toEqual(['gateway_status_differs']);
      expect(record.discrepancies[0]!.details).toMatchObject({ listedStatus: 'cancelled', ledgerStatus: 'approved' });
    });
  });

  it('a listed cancel never notified is the one difference, not also a status, and its late notification closes it', () => {
    const rows = [row({ pgCno: 'PG-1', amount: 30000, at: 1, status: 'cancelled' }), row({ line: 3, kind: 'cancel', pgCno: 'PG-1', cancelPgCno: 'CX-1', amount: 30000, at: 5, status: 'cancelled' })];
    const list = listing(rows, { received: 600 });
    const record = given(paid).when(list).then((r) => {
      expect(openKinds(r)).toEqual(['notification_missing']);
      expect(r.discrepancies[0]!.details).toMatchObject({ pgCno: 'PG-1', cancelPgCno: 'CX-1', listedAmount: 30000, resendPath: 'transaction management → notification inquiry' });
      expect(r.discrepancies[0]!.eventIds).toEqual([list.id]);
    });
    const late = partialCancel({ pgCno: 'PG-1', cancelPgCno: 'CX-1', cancelAmount: 30000, remainAmount: 0, at: 5, received: 700 });
    given(paid, list).when(late).then((r) => {
      expect(openKinds(r)).toEqual([]);
      expect(r.discrepancies).toEqual([expect.objectContaining({ id: record.discrepancies[0]!.id, kind: 'notification_missing', resolvedAt: minute(700), resolvedBy: 'ledger' })]);
      expect(r.status).toBe('cancelled');
    });
  });

  it('a listed payment of an order never notified makes the order known, with notification_missing', () => {
    given().when(listing([row({ pgCno: 'PG-9', amount: 12000, at: 3 })], { received: 600 })).then((record) => {
      expect(openKinds(record)).toEqual(['notification_missing']);
      expect(record.approved).toBe(0);
      expect(record.status).toBe('discrepancy');
    });
  });

  it('a payment accepted on a covered day and absent from the list is not_in_gateway_list; a payment on another day is not looked for', () => {
    given(paid).when(listing([], { received: 600 })).then((record) => {
      expect(openKinds(record)).toEqual(['not_in_gateway_list']);
      expect(record.discrepancies[0]!.details).toMatchObject({ pgCno: 'PG-1', day: DAY, amount: 30000 });
      expect(record.discrepancies[0]!.eventIds).toEqual([paid.id]);
    });
    given(paid).when(listing([], { received: 600, firstDay: '2026-11-22', lastDay: '2026-11-22' })).then((record) => expect(record.discrepancies).toEqual([]));
  });

  it('a later list for the same day supersedes the earlier one: what it lists is what counts', () => {
    const first = listing([], { received: 600, id: 'gwi_first' });
    const second = listing([row({ pgCno: 'PG-1', amount: 30000, at: 1 })], { received: 900, id: 'gwi_second' });
    given(paid, first).when(second).then((record) => {
      expect(openKinds(record)).toEqual([]);
      expect(record.discrepancies).toEqual([expect.objectContaining({ kind: 'not_in_gateway_list', openedAt: minute(600), resolvedAt: minute(900), resolvedBy: 'ledger' })]);
    });
    // The earlier list still speaks for the days the later one does not cover.
    const later = listing([], { received: 900, id: 'gwi_next', firstDay: '2026-11-22', lastDay: '2026-11-22' });
    given(paid, first).when(later).then((record) => expect(openKinds(record)).toEqual(['not_in_gateway_list']));
  });

  it('the same list imported twice is one fact: nothing changes', () => {
    const once = listing([row({ pgCno: 'PG-1', amount: 3000, at: 1 })], { received: 600 });
    const facts: LedgerFact[] = [paid, once];
    given(...facts).when({ ...once }).then((record) => expect(openKinds(record)).toEqual(['gateway_amount_differs']));
  });
});
