import { join } from 'node:path';
import { describeBrowser } from '../helpers/browser';
import { consoleInBrowser } from './console-in-browser';

const MALL = 'T0001234';

/** An ERP's own export: headers the built-in names do not know. */
const erpList = Buffer.from([
  '거래참조,고객주문,결제액,처리시각,처리상태',
  'PG26112000001,ORD-1001,"15,000",2026-11-20 09:00:00,승인',
  'PG26112000002,ORD-1002,"8,000",2026-11-20 10:30:00,승인',
  '합계,,"23,000",,',
].join('\r\n'), 'utf8');

describeBrowser('Reconcile → Upload in a browser, in Korean at 1024 px', () => {
  const session = consoleInBrowser();

  test('upload, a preview that asks for columns, the mapping chosen and saved, then Import onto the day', async () => {
    const { h, url, shots } = session();
    const page = await session().koreanPage(await h.addOperator('kim', 'operator'), 1024);

    await page.goto(`${url}/console/reconcile/upload?mall=${MALL}&day=2026-11-20`);
    await page.getByRole('heading', { name: '게이트웨이 파일 올리기' }).waitFor();
    await page.getByLabel('파일').setInputFiles({ name: 'erp-20261120.csv', mimeType: 'text/csv', buffer: erpList });
    await page.getByRole('button', { name: '미리보기' }).click();

    await page.getByText('다음 항목의 열이 없습니다').waitFor();
    expect(await page.getByRole('button', { name: '가져오기' }).count()).toBe(0);
    await page.getByLabel('거래번호', { exact: true }).selectOption('거래참조');
    await page.getByLabel('주문번호', { exact: true }).selectOption('고객주문');
    await page.getByLabel('금액', { exact: true }).selectOption('결제액');
    await page.getByLabel('거래일시', { exact: true }).selectOption('처리시각');
    await page.getByLabel('상태', { exact: true }).selectOption('처리상태');
    await page.getByRole('button', { name: '이 열로 다시 미리보기' }).click();
    await page.getByText('15,000원').first().waitFor();
    await page.getByRole('button', { name: '이 상점에 저장' }).click();
    await page.getByText('열 지정을 저장했습니다').waitFor();
    await page.getByText('이 상점에 저장된 열 지정').waitFor();
    await page.locator('details.mapping summary').click();
    await page.getByRole('button', { name: '이 상점에 저장' }).waitFor();
    // Nothing wider than the window at 1024 px.
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1')).toBe(true);
    await page.screenshot({ path: join(shots, 'console-ko-reconcile-upload.png'), fullPage: true });

    await page.getByRole('button', { name: '가져오기' }).click();
    await page.waitForURL(/\/console\/reconcile\?day=2026-11-20&mall=T0001234/, { timeout: 60_000 });
    await page.getByText(/게이트웨이 목록을 가져왔습니다: 1일에 걸친 2건/).waitFor();
  }, 120_000);
});
