import iconv from 'iconv-lite';
import { approvalNotification } from '../../src/simulator/notification-builders';
import { HOST, startConsoleHarness, type ConsoleHarness } from './console-harness';

/** Personal data in fields the gateway's catalogue does not name, and in bodies that cannot be parsed. */
const SECRETS = ['01055556666', '010-7777-8888', '900101-1234567', '이순신', '010-2222-3333', 'kim.minsu@', 'Gildong', 'hong@', '010-4444-5555', '김영희', '%B1%E8'];

describe('console: personal data masked by value, money and codes left readable', () => {
  let h: ConsoleHarness;
  let page: (path: string) => Promise<string>;

  beforeAll(async () => {
    h = await startConsoleHarness({ MALL_IDS: 'T0001234' }, { relay: false });
    await h.receiver.postJson(approvalNotification({
      shopOrderNo: 'ORDER-VALUES', hpNo: '01055556666', buyerHp: '010-7777-8888', residentNo: '900101-1234567',
      shopValue1: 'kim.minsu@example.com', shopValue2: '{"buyerName":"이순신","tel":"010-2222-3333"}',
      cardAmount: '51000', multiCardAmount: '12000', cardGubun: 'N', cardBizGubun: 'P', mobileCd: 'SKT', subCardCd: '321', mobileAnsimUsed: 'Y',
    })).expect(200);
    // Broken JSON (a missing comma): stored raw, not decodable into fields.
    await h.receiver.postForm('{"customerName":"Hong Gildong" "customerMail":"hong@example.com","memo":"call 010-4444-5555"}', 'application/json; charset=utf-8').expect(400);
    // An event-70 form in a charset the receiver does not know: stored raw, its name percent-encoded EUC-KR.
    const name = [...iconv.encode('김영희', 'cp949')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    await h.receiver.postForm(`res_cd=0000&noti_type=70&cno=123&depositName=${name}`, 'application/x-www-form-urlencoded; charset=x-nonesuch').expect((res) => {
      expect(res.status).toBeGreaterThanOrEqual(400);
    });
    const { agent } = await h.signIn();
    page = async (path) => {
      const answer = await agent.get(path).set('Host', HOST);
      expect(answer.status).toBe(200);
      return answer.text;
    };
  });
  afterAll(() => h.close());

  test('an event page masks unknown personal fields and shows money, codes and flags', async () => {
    const [row] = await h.receiver.store.searchEvents({ query: 'ORDER-VALUES', limit: 1, offset: 0 });
    const text = await page(`/console/events/${row!.eventId}`);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).toContain('*******6666');
    expect(text).toContain('******-*******');
    expect(text).toContain('k***@example.com');
    expect(text).toContain('&quot;buyerName&quot;:&quot;이**&quot;,&quot;tel&quot;:&quot;***-****-3333&quot;');
    for (const [field, value] of [['cardAmount', '51000'], ['multiCardAmount', '12000'], ['mobileCd', 'SKT'], ['subCardCd', '321']]) {
      expect(text).toMatch(new RegExp(`<th class="mono">${field}</th><td class="mono"><bdi>${value}</bdi></td>`));
    }
  });

  test('rejected bodies that cannot be parsed show names, e-mail and phones masked, percent-encoded names decoded', async () => {
    const rejections = await h.receiver.store.listRejections();
    expect(rejections).toHaveLength(2);
    const pages = await Promise.all(rejections.map((row) => page(`/console/rejections/${row.id}`)));
    for (const text of pages) for (const secret of SECRETS) expect(text).not.toContain(secret);
    const all = pages.join('\n');
    expect(all).toContain('&quot;customerName&quot;:&quot;H***********&quot;');
    expect(all).toContain('***-****-5555');
    expect(all).toContain('depositName=김**');
  });
});
