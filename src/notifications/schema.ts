import { z } from 'zod';
import { isNotiType, type NotiType } from './event-types';
import { isUnionPayForm, statedNotiType } from './stated-noti-type';
import { eucKrByteLength } from '../euc-kr';
import { shownFieldName } from '../observability/mask';
import {
  BASKET_FIELD_LENGTHS,
  BASKET_MAX_ITEMS,
  OPTIONAL_JSON_FIELDS,
  OPTIONAL_UNIONPAY_FIELDS,
  REQUIRED_JSON_FIELDS,
  REQUIRED_UNIONPAY_FIELDS,
  MAX_GATEWAY_AMOUNT,
  fitsGatewayAmount,
  isAmountField,
} from './fields';

/** The fields every notification carries, in the gateway's JSON names whatever its layout. */
export interface CommonFields {
  resCd: string;
  resMsg: string;
  mallId: string;
  notiType: NotiType;
  pgCno: string;
  shopOrderNo: string;
}

export interface ValidNotification {
  layout: 'json' | 'unionpay';
  common: CommonFields;
  /** Every field as received (decoded), unknown ones included. */
  fields: Record<string, unknown>;
  /** Cosmetic problems (over-long optional fields): logged, never a reason to refuse money. */
  warnings: string[];
}

export interface ValidationOptions {
  /** Empty: any merchant id is accepted. */
  mallIds: readonly string[];
}

const fieldValue = z.union([
  z.string(),
  // The gateway documents strings only; a bare number is unambiguous, so take it rather than refuse a payment.
  z.number().finite().transform(String),
]);

function requiredField(maxBytes: number) {
  return fieldValue.refine((v) => eucKrByteLength(v) <= maxBytes, {
    message: `longer than ${maxBytes} EUC-KR bytes`,
  });
}

function requiredShape(fields: Record<string, number>, nonEmpty: readonly string[]) {
  const shape: Record<string, z.ZodTypeAny> = {};
  for (const [name, max] of Object.entries(fields)) {
    const base = requiredField(max);
    shape[name] = nonEmpty.includes(name) ? base.refine((v) => v.trim() !== '', { message: 'must not be empty' }) : base;
  }
  return z.looseObject(shape, { error: 'body must be a JSON object' });
}

/** Each layout's optional fields: the documented length, and the place in the catalogue. */
const OPTIONAL_LIMITS = {
  json: optionalLimits(OPTIONAL_JSON_FIELDS),
  unionpay: optionalLimits(OPTIONAL_UNIONPAY_FIELDS),
} as const;

function optionalLimits(catalogue: Record<string, number>): Map<string, { max: number; order: number }> {
  return new Map(Object.entries(catalogue).map(([name, max], order) => [name, { max, order }]));
}

const JSON_REQUIRED = Object.keys(REQUIRED_JSON_FIELDS);
const UNIONPAY_REQUIRED = Object.keys(REQUIRED_UNIONPAY_FIELDS);

/**
 * The body's own fields, the required ones as the schema read them (a bare number as its
 * string). Not zod's output: it copies by assignment, which drops a field named `__proto__`
 * (or, for an object value, makes it the copy's prototype); the receiver keeps unknown fields as
 * received. A spread defines own properties, so `__proto__` stays data like any other name.
 */
function ownFields(input: Record<string, unknown>, parsed: Record<string, unknown>, required: readonly string[]): Record<string, unknown> {
  const fields = { ...input };
  for (const name of required) fields[name] = parsed[name];
  return fields;
}

const jsonShape = requiredShape(REQUIRED_JSON_FIELDS, ['resCd', 'mallId', 'notiType', 'pgCno', 'shopOrderNo']);
const unionPayShape = requiredShape(REQUIRED_UNIONPAY_FIELDS, ['res_cd', 'noti_type', 'cno', 'memb_id', 'order_no']);

/** Validates decoded fields; returns a reason per problem when the notification must be refused. */
export function validateNotification(
  input: Record<string, unknown>,
  options: ValidationOptions,
): { ok: true; value: ValidNotification } | { ok: false; reasons: string[] } {
  const layout = isUnionPayForm(input) ? 'unionpay' : 'json';
  const parsed = (layout === 'unionpay' ? unionPayShape : jsonShape).safeParse(input);
  if (!parsed.success) {
    return { ok: false, reasons: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`) };
  }
  const fields = ownFields(input, parsed.data as Record<string, unknown>, layout === 'unionpay' ? UNIONPAY_REQUIRED : JSON_REQUIRED);
  const common = layout === 'unionpay' ? unionPayCommon(fields) : jsonCommon(fields);
  const reasons: string[] = [];
  const warnings: string[] = [];

  if (!isNotiType(common.notiType)) reasons.push(`notiType: unknown event code "${common.notiType}"`);
  else if ((common.notiType === '70') !== (layout === 'unionpay')) {
    reasons.push(`notiType: event ${common.notiType} does not come in the ${layout === 'unionpay' ? 'UnionPay form' : 'JSON'} layout`);
  }
  if (options.mallIds.length > 0 && !options.mallIds.includes(common.mallId)) {
    reasons.push(`mallId: "${common.mallId}" is not one of MALL_IDS`);
  }
  // One pass over the fields a body has, not over the ~100 the catalogue knows.
  const limits = OPTIONAL_LIMITS[layout];
  const overLong: Array<{ order: number; warning: string }> = [];
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    const limit = limits.get(name);
    if (limit && typeof value === 'string') {
      const bytes = eucKrByteLength(value);
      if (bytes > limit.max) overLong.push({ order: limit.order, warning: `${name}: ${bytes} EUC-KR bytes, more than ${limit.max}` });
    }
    if (!isAmountField(name) || value === null || value === '') continue;
    const shown = shownFieldName(name);
    if (typeof value !== 'string' || !/^-?\d+$/.test(value)) reasons.push(`${shown}: amount must be an integer string`);
    // The gateway's amounts are never negative: counted, -5000 would read as money the shop gave back.
    else if (value.startsWith('-')) reasons.push(`${shown}: amount must not be negative`);
    // The gateway's amount fields are 12 digits: a larger value is no amount it sent. Refused, the
    // ledger's sums stay exact (well below 2^53) and nothing is forwarded rounded.
    else if (!fitsGatewayAmount(value)) reasons.push(`${shown}: amount is more than the gateway's 12-digit amount fields hold (at most ${MAX_GATEWAY_AMOUNT})`);
  }
  // In the catalogue's order, as they were listed when the catalogue was walked.
  if (overLong.length > 1) overLong.sort((a, b) => a.order - b.order);
  for (const { warning } of overLong) warnings.push(warning);
  if (layout === 'json') checkBasket(fields, reasons, warnings);

  if (reasons.length > 0) return { ok: false, reasons };
  return { ok: true, value: { layout, common: common as CommonFields, fields, warnings } };
}

function jsonCommon(fields: Record<string, unknown>) {
  const s = (name: string) => String(fields[name]);
  return {
    resCd: s('resCd'), resMsg: s('resMsg'), mallId: s('mallId'),
    notiType: String(statedNotiType(fields)), pgCno: s('pgCno'), shopOrderNo: s('shopOrderNo'),
  };
}

/** Event 70's names mapped onto the common JSON names, so everything downstream has one vocabulary. */
function unionPayCommon(fields: Record<string, unknown>) {
  const s = (name: string) => String(fields[name]);
  return {
    resCd: s('res_cd'), resMsg: s('res_msg'), mallId: s('memb_id'),
    notiType: String(statedNotiType(fields)), pgCno: s('cno'), shopOrderNo: s('order_no'),
  };
}

function checkBasket(fields: Record<string, unknown>, reasons: string[], warnings: string[]): void {
  if (fields.basketUsed !== 'Y') return;
  const count = String(fields.bkResCnt ?? '');
  if (!/^\d{1,2}$/.test(count) || Number(count) > BASKET_MAX_ITEMS) {
    reasons.push(`bkResCnt: must be an integer from 0 to ${BASKET_MAX_ITEMS} when basketUsed is Y`);
    return;
  }
  for (let n = 1; n <= Number(count); n += 1) {
    for (const [prefix, max] of Object.entries(BASKET_FIELD_LENGTHS)) {
      const value = fields[`${prefix}${n}`];
      if (typeof value !== 'string' || value === '') reasons.push(`${prefix}${n}: required by bkResCnt ${count}`);
      else if (eucKrByteLength(value) > max) warnings.push(`${prefix}${n}: more than ${max} EUC-KR bytes`);
    }
  }
}
