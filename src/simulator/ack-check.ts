import { FORM_ACK, type AckForm } from '../http/acks';

/**
 * How the gateway reads an answer: `acked` stops its retries; `refused` (5001, a non-200
 * status) makes it retry; `unexpected` is an answer in neither of the documented forms,
 * which a merchant must fix before going live whatever the gateway would do with it.
 */
export type AckVerdict = { kind: 'acked' } | { kind: 'refused'; reason: string } | { kind: 'unexpected'; reason: string };

export function checkAck(form: AckForm, status: number, body: Buffer): AckVerdict {
  return form === 'form' ? checkFormAck(status, body.toString('latin1')) : checkJsonAck(status, body.toString('utf8'));
}

function checkJsonAck(status: number, text: string): AckVerdict {
  let resCd: unknown;
  let resMsg: unknown;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') ({ resCd, resMsg } = parsed as { resCd?: unknown; resMsg?: unknown });
  } catch {
    resCd = undefined;
  }
  // The receiver's resMsg says why it refused ("source address … is not allowed"): the one
  // thing an operator needs to fix it, so it travels with the verdict.
  const why = typeof resMsg === 'string' && resMsg !== '' && resMsg !== 'FAIL' ? `: ${preview(resMsg)}` : '';
  if (status === 200) {
    if (resCd === '0000') return { kind: 'acked' };
    if (resCd === '5001') return { kind: 'refused', reason: `HTTP 200 resCd 5001${why}` };
    return { kind: 'unexpected', reason: `HTTP 200 without a JSON ack {"resCd":"0000"|"5001"}: ${preview(text)}` };
  }
  if (resCd === '0000') return { kind: 'unexpected', reason: `resCd 0000 with HTTP ${status}; a success must be HTTP 200` };
  return { kind: 'refused', reason: `HTTP ${status}${resCd === '5001' ? ` resCd 5001${why}` : `: ${preview(text)}`}` };
}

function checkFormAck(status: number, text: string): AckVerdict {
  if (status === 200 && text === FORM_ACK.success) return { kind: 'acked' };
  if (text === FORM_ACK.failure) return { kind: 'refused', reason: `HTTP ${status} res_cd=5001` };
  if (status === 200 || text === FORM_ACK.success) {
    return { kind: 'unexpected', reason: `HTTP ${status} ${JSON.stringify(preview(text))}; event 70 expects exactly res_cd=0000<0x1F>res_msg=SUCCESS with HTTP 200` };
  }
  return { kind: 'refused', reason: `HTTP ${status}: ${preview(text)}` };
}

function preview(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
