import iconv from 'iconv-lite';
import { readListOffLoop } from '../../src/reconciliation/import/read-off-loop';

const ROWS = 40_000;

/** A CP949 CSV in the portal's built-in layout, large enough that reading it takes a while. */
function list(): Buffer {
  const lines = ['거래일시,PG거래번호,취소거래번호,주문번호,승인번호,결제수단,상태,거래금액,취소금액'];
  for (let i = 0; i < ROWS; i += 1) lines.push(`2026-11-20 ${String(i % 24).padStart(2, '0')}:00:00,26112000${String(i).padStart(12, '0')},,ORD-${i},${30_000_000 + i},신용카드,승인,"1,${String(i % 1000).padStart(3, '0')}",0`);
  return iconv.encode(`${lines.join('\r\n')}\r\n`, 'cp949');
}

describe('a list is read on a thread of its own', () => {
  test('reading 40,000 rows leaves the event loop free: its longest pause is a small part of the read', async () => {
    const bytes = list();
    let last = performance.now();
    let longest = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const result = await readListOffLoop(bytes, 'list.csv');
    const took = performance.now() - started;
    clearInterval(tick);
    expect(result).toMatchObject({ ok: true, kind: 'transactions', firstDay: '2026-11-20', lastDay: '2026-11-20' });
    if (!result.ok) return;
    expect(result.rows).toHaveLength(ROWS);
    expect(result.rows[1]).toMatchObject({ pgCno: '26112000000000000001', shopOrderNo: 'ORD-1', amount: 1001, kind: 'payment', status: 'approved' });
    // Only the answer's copy into this thread stands on the loop, never the parse.
    expect(longest).toBeLessThan(took / 2);
  });

  test('a file that does not read is answered with its problems, from the thread', async () => {
    const result = await readListOffLoop(Buffer.from('not,a,list\n1,2,3\n'), 'x.csv');
    expect(result.ok).toBe(false);
  });
});
