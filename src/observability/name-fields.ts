/**
 * The fields that hold a person's name: the one list masking reads, for the logs, the CLI and the
 * console alike. A name is masked by the field it stands in, never by its shape: the gateway's
 * own text (`resMsg` 정상처리, `issuerName` 비씨카드, `statusMessage` 매입요청) is a Korean word of
 * two to four syllables as often as a name is, and is shown as it came.
 */

/** The gateway's fields that hold a person's name (its interface document). */
export const GATEWAY_NAME_FIELDS: readonly string[] = ['customerName', 'depositName', 'depositorName', 'payerName', 'refundDepositName'];

/**
 * A field the gateway's document does not list (a shop's JSON in a `shopValue`, another system's
 * body): a person's name when its name ends in one of these words (`buyerName`, `name`,
 * `accountHolder`), or when it is a person (`buyer`, `orderer`).
 */
const NAME_WORD = /(name|depositor|holder)$/i;
const PERSON = /(buyer|customer|payer|orderer|recipient)$/i;

/** Names of things, not of people, though they end in `name`: shown. */
const THING_NAME = /^(bank|issuer|acquirer|card|product|goods|mall|shop|status|res|event|file|host|queue|method|type|level|message)name$/i;

const GATEWAY = new Set(GATEWAY_NAME_FIELDS.map((field) => field.toLowerCase()));

/** Whether a field of this name holds a person's name (any case). */
export function holdsPersonName(key: string): boolean {
  if (GATEWAY.has(key.toLowerCase())) return true;
  return !THING_NAME.test(key) && (NAME_WORD.test(key) || PERSON.test(key));
}

/** Whether a field of this name holds the name of a thing (a bank, an issuer, a product): shown as it came. */
export function namesAThing(key: string): boolean {
  return THING_NAME.test(key);
}
