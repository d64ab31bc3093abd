import type { NotifyScenario } from './scenarios';

/** The form's ASCII pairs (`name=value`, `&`-joined); its Korean values stay percent-encoded bytes. */
function alterForm(body: Buffer, name: string, value: string): Buffer {
  const pairs = body.toString('ascii').split('&').map((pair) => (pair.startsWith(`${name}=`) ? `${name}=${value}` : pair));
  return Buffer.from(pairs.join('&'), 'ascii');
}

function alterJson(body: Buffer, change: (fields: Record<string, unknown>) => void): Buffer {
  const fields = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  change(fields);
  return Buffer.from(JSON.stringify(fields), 'utf8');
}

/**
 * The body a `garbled` or `altered-amount` scenario puts on the wire instead of the gateway's:
 * garbled, a five-character result code (the field holds four bytes); altered, the amount fields
 * the notification carries (`amount`, and `cancelAmount` on a cancel) say another figure.
 */
export function faultyBody(body: Buffer, form: boolean, scenario: NotifyScenario | undefined): Buffer {
  if (scenario?.kind === 'garbled') {
    return form ? alterForm(body, 'res_cd', '00000') : alterJson(body, (fields) => void (fields.resCd = '00000'));
  }
  if (scenario?.kind === 'altered-amount') {
    const amount = String(scenario.amount);
    if (form) return alterForm(body, 'amount', amount);
    return alterJson(body, (fields) => {
      fields.amount = amount;
      if ('cancelAmount' in fields) fields.cancelAmount = amount;
    });
  }
  return body;
}
