import { setTimeout as sleep } from 'node:timers/promises';
import { importGatewayList, type ImportDeps } from '../../src/reconciliation/import/import-list';
import { createReconciliationStore, type ReconciliationStore, type StoredImport } from '../../src/reconciliation/import/reconciliation-store';
import type { GatewayTransactionRow } from '../../src/reconciliation/file/gateway-rows';
import type { ImportPage } from '../../src/reconciliation/sql/store-import';
import type { LedgerStore } from '../../src/ledger/projector/ledger-store';
import type { StoreDriver } from '../../src/store/driver';

const MALL = 'T0001';
const row = (i: number): GatewayTransactionRow => ({
  line: i + 2, pgCno: `PG${i}`, cancelPgCno: null, kind: 'payment', shopOrderNo: `ORDER-${i}`, approvalNo: null,
  amount: 1000, cancelledAmount: null, at: '2026-11-30T03:00:00.000Z', status: 'approved', statusText: '승인', method: null,
});

/** A store whose page writes each take `pageMs` (longer than the `pageWriteMs` it asks for), and keeps what they wrote. */
function slowStore(pageMs: number): { store: ReconciliationStore; pages: ImportPage[] } {
  const pages: ImportPage[] = [];
  const stored = (s: StoredImport) => ({ stored: s, created: true });
  const store = {
    pageWriteMs: 5,
    findImport: async () => null,
    ordersOfPgCnos: async () => [],
    ordersOnDays: async () => [],
    storeImportPage: async (page: ImportPage) => {
      await sleep(pageMs);
      pages.push(page);
    },
    finishImport: async (s: StoredImport) => stored(s),
    importRowCounts: async () => ({ payments: 0, cancels: 0 }),
    reconciliationDay: async () => [],
  } as unknown as ReconciliationStore;
  return { store, pages };
}

describe("an import's pages", () => {
  it('shrink when a page takes longer to write than the store allows, and write every row and fact once', async () => {
    const rows = Array.from({ length: 600 }, (_, i) => row(i));
    const { store, pages } = slowStore(40);
    const deps: ImportDeps = {
      reconciliation: store,
      ledger: { caughtUp: async () => undefined } as unknown as LedgerStore,
      read: async () => ({ ok: true, kind: 'transactions', rows, firstDay: '2026-11-30', lastDay: '2026-11-30', mapping: {} as never, skipped: [] }),
    };
    const outcome = await importGatewayList(deps, { bytes: Buffer.from('a list'), fileName: 'list.csv', mallId: MALL, actor: 'test', at: '2026-12-01T00:00:00.000Z', matchWaitMs: 0 });
    expect(outcome.outcome).toBe('imported');
    expect(pages.length).toBeGreaterThan(2);
    expect(pages[1]!.rows.length).toBeLessThan(pages[0]!.rows.length);
    expect(pages.flatMap((p) => p.rows.map((r) => r.row.line))).toEqual(rows.map((r) => r.line));
    expect(pages.flatMap((p) => p.facts.map((f) => f.order.shopOrderNo)).sort()).toEqual(rows.map((r) => r.shopOrderNo).sort());
  });

  it("are the ledger's writes, never in the acks' transaction", async () => {
    const asked: string[] = [];
    const driver = {
      kind: 'sqlite',
      write: async (name: string) => void asked.push(`write ${name}`),
      ledgerWrite: async (name: string) => void asked.push(`ledgerWrite ${name}`),
    } as unknown as StoreDriver;
    await createReconciliationStore(driver).storeImportPage({ importId: 'i', mallId: MALL, rows: [], facts: [] });
    expect(asked).toEqual(['ledgerWrite storeImportPage']);
  });
});
