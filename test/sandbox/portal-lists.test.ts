import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import type { RunningSandbox } from '../../src/sandbox/sandbox-app';
import { kstDay } from '../../src/ledger/summary/kst-day';
import { payoutDay } from '../../src/sandbox/portal-lists';
import { cancelBody, MALL_ID, post, sandboxForTests, settledNotifications, tradeBody } from './sandbox-fixtures';

/** A receiver that acks everything and keeps each body it was sent, as the gateway's peer. */
async function recordingReceiver() {
  const bodies: Array<Record<string, string>> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"resCd":"0000","resMsg":"SUCCESS"}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/n`, bodies, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function xlsxRows(file: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]!.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe("the sandbox's portal lists what its gateway made, whatever its notifications said", () => {
  let receiver: Awaited<ReturnType<typeof recordingReceiver>>;
  let sandbox: RunningSandbox;
  beforeEach(async () => {
    receiver = await recordingReceiver();
    sandbox = await sandboxForTests({ defaultNotifyUrl: receiver.url, schedule: { maxTries: 2 } });
  });
  afterEach(async () => {
    await sandbox.stop();
    await receiver.close();
  });

  const paidTrade = async (amount: number) => {
    const trade = await post(`${sandbox.url}/api/trades/wallet-a`, tradeBody({ amountInfo: { totalAmount: amount, currency: 'KRW' } }));
    const token = new URL(String(trade.body.paymentPageUrl)).pathname.split('/').pop();
    await fetch(`${sandbox.url}/pay/${token}/pay`, { method: 'POST', redirect: 'manual' });
    return [...sandbox.context.ledger.trades.values()].find((t) => t.token === token)!;
  };
  const scenario = (body: Record<string, unknown>) => post(`${sandbox.url}/sandbox/scenarios`, body);
  const download = async (name: string, query = `mallId=${MALL_ID}`) => {
    const res = await fetch(`${sandbox.url}/sandbox/portal/${name}?${query}`);
    return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), body: Buffer.from(await res.arrayBuffer()) };
  };

  test("a lost, a garbled and an altered notification leave the transaction list as the gateway made it; a forged one never enters it", async () => {
    await scenario({ operation: 'notify', kind: 'lost' });
    const lost = await paidTrade(15_000);
    await scenario({ operation: 'notify', kind: 'garbled' });
    const garbled = await paidTrade(16_000);
    await scenario({ operation: 'notify', kind: 'altered-amount', amount: 1_000 });
    const altered = await paidTrade(17_000);
    const kept = await paidTrade(30_000);
    const cancel = await post(`${sandbox.url}/api/trades/wallet-b/revise`, cancelBody(kept.pgCno!, { amountInfo: { totAmount: 10_000, currency: 'KRW' } }));
    expect(cancel.body.resCd).toBe('0000');
    const forged = await post(`${sandbox.url}/sandbox/portal/forged-notification`, { mallId: MALL_ID, shopOrderNo: 'FORGED-1', amount: 50_000 });
    expect(forged.status).toBe(202);
    await settledNotifications(sandbox, 6);

    const sent = new Map(receiver.bodies.map((body) => [`${body.pgCno}/${body.cancelPgCno ?? ''}`, body]));
    expect(sent.has(`${lost.pgCno}/`)).toBe(false);
    expect(sent.get(`${garbled.pgCno}/`)?.resCd).toBe('00000');
    expect(sent.get(`${altered.pgCno}/`)?.amount).toBe('1000');
    expect(sent.get(`${forged.body.pgCno}/`)?.amount).toBe('50000');

    const file = await download('transactions.xlsx');
    expect(file.status).toBe(200);
    expect(file.disposition).toMatch(/^attachment; filename="?transactions_T0001234_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx"?$/);
    const rows = await xlsxRows(file.body);
    expect(rows[0]![0]).toBe('거래내역 조회');
    const headerAt = rows.findIndex((row) => row[0] === '거래일시');
    expect(rows[headerAt]).toEqual(['거래일시', 'PG거래번호', '취소거래번호', '주문번호', '승인번호', '결제수단', '상태', '거래금액', '취소금액']);
    const body = rows.slice(headerAt + 1, -1);
    const byPgCno = (pgCno: string, status: string) => body.find((row) => row[1] === pgCno && row[6] === status);
    expect(byPgCno(lost.pgCno!, '승인')?.[7]).toBe(15_000);
    expect(byPgCno(garbled.pgCno!, '승인')?.[7]).toBe(16_000);
    expect(byPgCno(altered.pgCno!, '승인')?.[7]).toBe(17_000);
    expect(byPgCno(kept.pgCno!, '승인')?.[7]).toBe(30_000);
    const cancelRow = byPgCno(kept.pgCno!, '부분취소')!;
    expect(cancelRow.slice(2, 3)).toEqual([cancel.body.cancelPgCno]);
    expect(cancelRow.slice(7)).toEqual([-10_000, 10_000]);
    expect(body.some((row) => row[1] === forged.body.pgCno)).toBe(false);
    expect(body).toHaveLength(5);
    // An Excel date whose wall clock is Korea's, and a totals row under the rows.
    expect(cancelRow[0]).toBeInstanceOf(Date);
    expect(kstDay(new Date((cancelRow[0] as Date).getTime() - 9 * 3600_000).toISOString())).toBe(kstDay(new Date().toISOString()));
    expect(rows.at(-1)!.slice(0, 1).concat(rows.at(-1)!.slice(6))).toEqual(['합계', '5건', 78_000 - 10_000, 10_000]);
  });

  test('the CSV is CP949 with separators in its amounts, and the settlement statement pays gross less fee and VAT two business days on', async () => {
    const trade = await paidTrade(1_234_567);
    await settledNotifications(sandbox, 1);
    const csv = await download('transactions.csv');
    expect(csv.body.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    const text = iconv.decode(csv.body, 'cp949');
    expect(text.split('\r\n')[0]).toBe('거래내역 조회');
    expect(text).toContain(`,${trade.pgCno},,${trade.shopOrderNo},`);
    expect(text).toContain(',간편결제,승인,"1,234,567",0\r\n');

    const statement = iconv.decode((await download('settlement.csv')).body, 'cp949').split('\r\n');
    const header = statement.findIndex((line) => line.startsWith('거래일자,'));
    expect(statement[header]).toBe('거래일자,지급예정일,PG거래번호,취소거래번호,주문번호,결제수단,거래금액,수수료,부가세,정산금액');
    const today = kstDay(new Date().toISOString());
    // 2.5 % of 1,234,567 is 30,864.175 → 30,864; its VAT 3,086.4 → 3,086; paid out 1,200,617.
    expect(statement[header + 1]).toBe(`${today},${payoutDay(today)},${trade.pgCno},,${trade.shopOrderNo},간편결제,"1,234,567","30,864","3,086","1,200,617"`);
  });

  test('two business days skip the weekend', () => {
    expect(payoutDay('2026-12-03')).toBe('2026-12-07'); // Thursday → Monday
    expect(payoutDay('2026-12-04')).toBe('2026-12-08'); // Friday → Tuesday
    expect(payoutDay('2026-12-05')).toBe('2026-12-08'); // Saturday → Tuesday
    expect(payoutDay('2026-12-07')).toBe('2026-12-09');
  });

  test('a list without its mall, or for more than a month, is refused before anything is read', async () => {
    expect((await download('transactions.xlsx', '')).status).toBe(400);
    const long = await download('settlement.csv', `mallId=${MALL_ID}&from=2026-01-01&to=2026-03-01`);
    expect(long.status).toBe(400);
    expect(JSON.parse(long.body.toString()).resMsg).toMatch(/31/);
    expect((await download('ledger.pdf')).status).toBe(404);
  });
});
