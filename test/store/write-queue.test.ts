import { WriteQueue } from '../../src/store/sqlite/write-queue';

const LEDGER = new Set(['applyLedgerBatch', 'storeImportPage']);
const queue = () => new WriteQueue<{ name: string; id: number }, string>((name) => LEDGER.has(name));
const ids = (taken: Array<{ write: { id: number } }>) => taken.map((t) => t.write.id);

describe("the SQLite writer's queue", () => {
  it('commits every waiting ack together, ahead of ledger writes asked for before them', () => {
    const q = queue();
    q.take([{ name: 'applyLedgerBatch', id: 1 }, { name: 'recordNotification', id: 2 }], 'main');
    q.take([{ name: 'recordNotification', id: 3 }], 'listener');
    expect(ids(q.takeAcks())).toEqual([2, 3]);
    expect(q.takeLedgerWrite()?.write.id).toBe(1);
    expect(q.waiting).toBe(0);
  });

  it('gives each ledger write a transaction of its own, and acks taken between two go before the second', () => {
    const q = queue();
    q.take([{ name: 'applyLedgerBatch', id: 1 }, { name: 'storeImportPage', id: 2 }, { name: 'storeImportPage', id: 3 }], 'main');
    expect(q.takeAcks()).toEqual([]);
    expect(q.takeLedgerWrite()?.write.id).toBe(1);
    // An ack arrives while the first ledger write commits.
    q.take([{ name: 'recordNotification', id: 4 }], 'listener');
    expect(q.waiting).toBe(3);
    const acks = q.takeAcks();
    expect(ids(acks)).toEqual([4]);
    expect(acks[0]!.origin).toBe('listener');
    expect(q.takeLedgerWrite()?.write.id).toBe(2);
    expect(q.takeLedgerWrite()?.write.id).toBe(3);
    expect(q.takeLedgerWrite()).toBeUndefined();
  });
});
