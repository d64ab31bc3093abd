import type { EventListing } from '../../src/cli/event-listing';
import { escapeHtml } from '../../src/console/html';
import { approvalNotification, unionPayForm } from '../../src/simulator/notification-builders';
import { runCliCaptured } from '../cli/seeded-receiver';
import { DIGIT_KINDS, SEPARATORS, writeCard, type WrittenCard } from '../helpers/written-cards';
import { HOST, startConsoleHarness, type ConsoleHarness } from './console-harness';

/**
 * Issue 35, item 7, end to end: every separator and the common digit kinds, stored through the
 * receiver, on the event page, the rejection page, `events show` and `rejections show` (human and
 * `--json`, whose raw bodies are masked byte for byte), and in an EUC-KR event-70 form.
 */
const CARDS = ['4163233219489632', '4111111111111111', '5555555555554444', '378282246310005', '6011000990139424', '4012888888881881'];
const KINDS = ['ascii', 'full-width', 'arabic-indic', 'mathematical bold'];
const CASES: WrittenCard[] = SEPARATORS.flatMap((separator, s) =>
  KINDS.map((kind, k) => writeCard(CARDS[(s + k) % CARDS.length]!, [kind], [[separator]])),
);
// The same numbers in one run of full-width digits, and with a digit kind changing inside the number.
CASES.push(writeCard(CARDS[0]!, ['full-width'], null), writeCard(CARDS[1]!, Object.keys(DIGIT_KINDS), [[' ']]));

/** The forms in which a page or a terminal could show a case whole. */
function shownWhole(output: string): string[] {
  const json = (text: string) => JSON.stringify(text).slice(1, -1);
  return CASES.filter(({ written }) => [written, escapeHtml(written), json(written), escapeHtml(json(written))].some((form) => output.includes(form))).map((c) => c.written);
}

/** The CLI is a process per call, a dozen or more per test: time for them on a loaded machine, not a measure of them. */
const CLI_RUNS_MS = 180_000;

describe('card numbers with any separator and any digits, in every view', () => {
  let h: ConsoleHarness;
  let page: (path: string) => Promise<string>;
  const cli = (...args: string[]) => runCliCaptured(args, { DATABASE_URL: h.receiver.config.DATABASE_URL, EXTRA_ALLOWED_IPS: '127.0.0.1' });
  const FIELDS = ['shopValue1', 'shopValue2', 'shopValue3', 'shopValue4', 'shopValue5', 'shopValue6', 'resMsg', 'memo'];

  beforeAll(async () => {
    h = await startConsoleHarness({}, { relay: false });
    for (let at = 0, n = 0; at < CASES.length; at += FIELDS.length, n++) {
      const fields = Object.fromEntries(FIELDS.map((field, i) => [field, `card ${CASES[at + i]?.written ?? ''} ok`]));
      await h.receiver.postJson(approvalNotification({ ...fields, shopOrderNo: `ORD-SEP-${n}` })).expect(200);
    }
    const text = CASES.map((c) => `pan ${c.written} x`).join('\n');
    await h.receiver.postForm(text, 'text/plain; charset=utf-8').expect(415);
    await h.receiver.postForm(`{"memo": ${JSON.stringify(text)} "broken"}`, 'application/json; charset=utf-8').expect(400);
    const form = unionPayForm({ order_no: 'ORD-UP-SEP', res_msg: '카드 ４１６３－２３３２－１９４８－９６３２ 승인', kvp_pgid: '４１１１ １１１１ １１１１ １１１１' });
    await h.receiver.postForm(form.body, form.contentType).expect(200);
    CASES.push({ digits: '', written: '４１６３－２３３２－１９４８－９６３２', masked: '' }, { digits: '', written: '４１１１ １１１１ １１１１ １１１１', masked: '' });
    const { agent } = await h.signIn();
    page = async (path) => (await agent.get(path).set('Host', HOST).expect(200)).text;
  });
  afterAll(() => h.close());

  test('the event page and events show, human and --json', async () => {
    const rows = (await cli('events', 'list', '--json', '--limit', '1000')).json<EventListing[]>();
    const events = rows.filter((row) => /^ORD-(SEP-\d+|UP-SEP)$/.test(row.shopOrderNo ?? ''));
    // The cases posted in fields (all but the two EUC-KR form ones pushed after), FIELDS to an event, and the form.
    expect(events).toHaveLength(Math.ceil((CASES.length - 2) / FIELDS.length) + 1);
    for (const event of events) {
      expect(shownWhole(await page(`/console/events/${event.id}`))).toEqual([]);
      const shown = await cli('events', 'show', event.id);
      expect(shown.code).toBe(0);
      expect(shownWhole(shown.stdout)).toEqual([]);
      const json = await cli('events', 'show', event.id, '--json');
      expect(shownWhole(json.stdout)).toEqual([]);
      const raw = Buffer.from(json.json<{ rawBody: string }>().rawBody, 'base64');
      expect(shownWhole(raw.toString('utf8'))).toEqual([]);
      // The EUC-KR form's full-width digits, percent-escaped: the number's second group (２３３２) never whole.
      expect(raw.toString('latin1')).not.toContain('%A3%AD%A3%B2%A3%B3%A3%B3%A3%B2%A3%AD');
    }
    expect(await page(`/console/events/${events.find((e) => e.shopOrderNo === 'ORD-UP-SEP')!.id}`)).toContain('카드 ４１６３－２３**－****－９６３２ 승인');
  }, CLI_RUNS_MS);

  test('the rejection page and rejections show, human and --json', async () => {
    const rejections = await h.receiver.store.listRejections();
    expect(rejections).toHaveLength(2);
    for (const rejection of rejections) {
      expect(shownWhole(await page(`/console/rejections/${rejection.id}`))).toEqual([]);
      const shown = await cli('rejections', 'show', String(rejection.id));
      expect(shown.code).toBe(0);
      expect(shownWhole(shown.stdout)).toEqual([]);
      const json = await cli('rejections', 'show', String(rejection.id), '--json');
      expect(shownWhole(Buffer.from(json.json<{ rawBody: string }>().rawBody, 'base64').toString('utf8'))).toEqual([]);
    }
  }, CLI_RUNS_MS);
});
