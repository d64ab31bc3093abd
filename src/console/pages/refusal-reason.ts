import { html, isolated, type SafeHtml } from '../html';
import type { MessageKey } from '../i18n/catalogues';
import type { Translator } from '../i18n/translator';

/**
 * A refusal's reasons are stored as the receiver answered the gateway (English, in `resMsg`, the
 * log and the rejection row): the gateway's operators and the logs read that text. The console
 * reads each reason back by its shape and says it in the page's words; the field names and values
 * in it stay codes. A reason of no known shape is shown as stored, marked English.
 */
const SHAPES: ReadonlyArray<{ shape: RegExp; key: MessageKey; values: (m: RegExpExecArray) => Record<string, string> }> = [
  { shape: /^(\S+): amount must be an integer string$/, key: 'reason.notInteger', values: (m) => ({ field: m[1]! }) },
  { shape: /^(\S+): amount must not be negative$/, key: 'reason.negative', values: (m) => ({ field: m[1]! }) },
  { shape: /^(\S+): amount is more than the gateway's 12-digit amount fields hold \(at most (\d+)\)$/, key: 'reason.tooLarge', values: (m) => ({ field: m[1]!, max: m[2]! }) },
  { shape: /^mallId: "(.*)" is not one of MALL_IDS$/, key: 'reason.mallNotServed', values: (m) => ({ mallId: m[1]! }) },
  { shape: /^notiType: unknown event code "(.*)"$/, key: 'reason.unknownType', values: (m) => ({ notiType: m[1]! }) },
  { shape: /^notiType: event (\S+) does not come in the (UnionPay form|JSON) layout$/, key: 'reason.wrongLayout', values: (m) => ({ notiType: m[1]!, layout: m[2] === 'JSON' ? 'JSON' : 'form' }) },
  { shape: /^(\S+): longer than (\d+) EUC-KR bytes$/, key: 'reason.tooLong', values: (m) => ({ field: m[1]!, max: m[2]! }) },
  { shape: /^(\S+): must not be empty$/, key: 'reason.empty', values: (m) => ({ field: m[1]! }) },
  { shape: /^(\S+): Invalid input: expected \w+, received undefined$/, key: 'reason.missing', values: (m) => ({ field: m[1]! }) },
  { shape: /^(\S+): Invalid input.*$/, key: 'reason.notText', values: (m) => ({ field: m[1]! }) },
  { shape: /^(?:body: )?body must be a JSON object$/, key: 'reason.notObject', values: () => ({}) },
  { shape: /^bkResCnt: must be an integer from 0 to (\d+) when basketUsed is Y$/, key: 'reason.basketCount', values: (m) => ({ max: m[1]! }) },
  { shape: /^(\S+): required by bkResCnt (\d+)$/, key: 'reason.basketItem', values: (m) => ({ field: m[1]!, count: m[2]! }) },
  { shape: /^source (\S+) is not a gateway address nor in EXTRA_ALLOWED_IPS$/, key: 'reason.sourceNotAllowed', values: (m) => ({ address: m[1]! }) },
  { shape: /^source address (\S+) is not allowed \(the receiver's log says how to allow an address\)$/, key: 'reason.forbidden', values: (m) => ({ address: m[1]! }) },
  { shape: /^empty body$/, key: 'reason.emptyBody', values: () => ({}) },
  { shape: /^body too large$/, key: 'reason.tooLargeBody', values: () => ({}) },
  { shape: /^body is not valid UTF-8$/, key: 'reason.notUtf8', values: () => ({}) },
  { shape: /^and (\d+) more$/, key: 'reason.more', values: (m) => ({ count: m[1]! }) },
];

/** One reason in the page's words, or as stored (marked English) when its shape is unknown. */
export function refusalReason(t: Translator, reason: string): SafeHtml {
  for (const { shape, key, values } of SHAPES) {
    const m = shape.exec(reason);
    if (m) return html`<span class="reason">${t.rich(key, values(m))}</span>`;
  }
  return html`<span class="reason" lang="en">${isolated(reason)}</span>`;
}

/** A stored list of reasons (`a; b; and 3 more`), each in the page's words. */
export function refusalReasons(t: Translator, stored: string): SafeHtml {
  return html`${stored.split('; ').map((reason, i) => html`${i > 0 ? '; ' : ''}${refusalReason(t, reason)}`)}`;
}
