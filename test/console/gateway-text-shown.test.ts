import { Writable } from 'node:stream';
import fc from 'fast-check';
import type { EventListing } from '../../src/cli/event-listing';
import { createLogger } from '../../src/observability/logger';
import { maskSensitive } from '../../src/observability/mask';
import { GATEWAY_NAME_FIELDS } from '../../src/observability/name-fields';
import { approvalNotification, depositNotification } from '../../src/simulator/notification-builders';
import { runCliCaptured } from '../cli/seeded-receiver';
import { HOST, startConsoleHarness, type ConsoleHarness } from './console-harness';

/**
 * Issue 35, item 9: every card approval that also carries a phone number showed `resMsg 정***`,
 * `issuerName 비***`, `statusMessage 매***`: any value of two to four Hangul syllables beside a
 * phone was taken for a name. The gateway's own text is shown as it came; names are masked by the
 * field that holds them; phones, accounts and cards stay masked in every field.
 */
const GATEWAY_TEXT = {
  resMsg: '정상처리', issuerName: '비씨카드', acquirerName: '신한카드', statusMessage: '매입요청',
  escrowStatusMessage: '배송중', cashReceiptResMsg: '정상발급', transferFailMessage: '계좌오류',
};

describe('the gateway\'s own text is shown as it came; names are masked by their field', () => {
  let h: ConsoleHarness;
  let eventId: string;
  let depositId: string;

  beforeAll(async () => {
    h = await startConsoleHarness({}, { relay: false });
    const approval = approvalNotification({ ...GATEWAY_TEXT, shopOrderNo: 'ORD-GATEWAY-TEXT', customerName: '홍길동', customerContactNo: '01012345678', customerMail: 'hong@example.com' });
    await h.receiver.postJson(approval).expect(200);
    const deposit = depositNotification({ shopOrderNo: 'ORD-GATEWAY-DEPOSIT', depositName: '김철수', bankName: '국민은행', resMsg: '입금완료', shopValue1: '{"tel":"010-2222-3333"}' });
    await h.receiver.postJson(deposit).expect(200);
    eventId = (await h.receiver.store.searchEvents({ query: 'ORD-GATEWAY-TEXT', limit: 1, offset: 0 }))[0]!.eventId;
    depositId = (await h.receiver.store.searchEvents({ query: 'ORD-GATEWAY-DEPOSIT', limit: 1, offset: 0 }))[0]!.eventId;
  });
  afterAll(() => h.close());

  test('the event page', async () => {
    const { agent } = await h.signIn();
    const page = (await agent.get(`/console/events/${eventId}`).set('Host', HOST).expect(200)).text;
    for (const [field, text] of Object.entries(GATEWAY_TEXT)) {
      expect(page).toContain(`<th class="mono">${field}</th><td class="mono"><bdi>${text}</bdi></td>`);
      expect(page).toContain(`&quot;${field}&quot;: &quot;${text}&quot;`);
    }
    expect(page).toContain('<span class="gateway-text"><bdi>정상처리</bdi></span>');
    expect(page).toContain('<span class="gateway-text"><bdi>매입요청</bdi></span>');
    expect(page).toContain('<th class="mono">customerName</th><td class="mono"><bdi>홍**</bdi></td>');
    expect(page).toContain('<th class="mono">customerContactNo</th><td class="mono"><bdi>*******5678</bdi></td>');
    expect(page).not.toMatch(/길동|01012345678|hong@/);
    const deposit = (await agent.get(`/console/events/${depositId}`).set('Host', HOST).expect(200)).text;
    expect(deposit).toContain('<bdi>국민은행</bdi>');
    expect(deposit).toContain('<bdi>입금완료</bdi>');
    expect(deposit).toContain('<bdi>김**</bdi>');
    expect(deposit).not.toMatch(/철수|94770201234567|2222-3333/);
  });

  test('events show', async () => {
    const cli = (...args: string[]) => runCliCaptured(args, { DATABASE_URL: h.receiver.config.DATABASE_URL, EXTRA_ALLOWED_IPS: '127.0.0.1' });
    const rows = (await cli('events', 'list', '--json')).json<EventListing[]>();
    expect(rows.map((row) => row.id)).toContain(eventId);
    const shown = await cli('events', 'show', eventId);
    expect(shown.code).toBe(0);
    for (const [field, text] of Object.entries(GATEWAY_TEXT)) expect(shown.stdout).toContain(`"${field}": "${text}"`);
    expect(shown.stdout).toContain('"customerName": "홍**"');
    expect(shown.stdout).toContain('"customerContactNo": "*******5678"');
    expect(shown.stdout).not.toMatch(/길동|01012345678|hong@/);
  });

  test('any Korean word in a field that holds no name is shown beside any phone; every name field is masked', () => {
    const hangulWord = fc.array(fc.integer({ min: 0xac00, max: 0xd7a3 }), { minLength: 2, maxLength: 4 }).map((codes) => String.fromCharCode(...codes));
    const phone = fc.constantFrom('01012345678', '010-1234-5678', '+82 10 1234 5678', '02-123-4567');
    const notName = fc.constantFrom(...Object.keys(GATEWAY_TEXT), 'bankName', 'res_msg', 'shopValue1', 'productName', 'memo', 'who');
    fc.assert(
      fc.property(hangulWord, hangulWord, phone, notName, fc.constantFrom(...GATEWAY_NAME_FIELDS, 'buyerName', 'name', 'accountHolder'), (word, name, contact, field, nameField) => {
        const record = { [field]: word, customerContactNo: contact, memo2: `${word} ${contact}`, [nameField]: name };
        const out = maskSensitive(record) as Record<string, string>;
        expect(out[field]).toBe(word);
        expect(out.memo2!.startsWith(`${word} `)).toBe(true);
        expect(out.memo2).not.toContain(contact);
        // At most its first letter stays.
        expect(out[nameField]!.slice(1)).toBe('*'.repeat(name.length - 1));
        const lines: string[] = [];
        createLogger({ level: 'info', stream: new Writable({ write: (chunk, _enc, done) => { lines.push(String(chunk)); done(); } }) }).info('notification', { fields: record });
        expect((JSON.parse(lines[0]!) as { fields: Record<string, string> }).fields).toEqual(out);
      }),
      { numRuns: 500 },
    );
  });
});
