import { z } from 'zod';
import {
  OPTIONAL_JSON_FIELDS,
  OPTIONAL_UNIONPAY_FIELDS,
  REQUIRED_JSON_FIELDS,
  REQUIRED_UNIONPAY_FIELDS,
  isAmountField,
} from './fields';

/**
 * An event's `data` as the catalogue in fields.ts knows it: the same lengths the validation
 * checks, described for a consumer. Unknown fields pass through as received, so the object
 * stays open. An amount field is an integer string (or empty/null when the gateway left it
 * so); other optional fields are documented as strings, but a bare number is taken too.
 */
function dataSchema(required: Record<string, number>, optional: Record<string, number>) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, max] of Object.entries(required)) shape[name] = z.string().meta({ description: `at most ${max} EUC-KR bytes` });
  for (const [name, max] of Object.entries(optional)) shape[name] = optionalField(name, max).optional();
  return z.looseObject(shape);
}

function optionalField(name: string, max: number): z.ZodType {
  if (isAmountField(name)) {
    return z.union([z.string().regex(/^(-?\d+)?$/), z.null()]).meta({ description: `an integer in the currency's minor unit, as a string (at most ${max} characters)` });
  }
  return z.union([z.string(), z.number(), z.null()]).meta({ description: `at most ${max} EUC-KR bytes` });
}

/** Events 10-51: the gateway's JSON names, decoded from the body. */
export const jsonDataSchema = dataSchema(REQUIRED_JSON_FIELDS, OPTIONAL_JSON_FIELDS)
  .meta({ id: 'GatewayJsonFields', description: "every field of the gateway's JSON notification, as received; basket triples productNo<n>, productPgCno<n>, sellerId<n> and unknown fields included" });

/** Event 70: the UnionPay form's own snake_case names, decoded from EUC-KR. */
export const unionPayDataSchema = dataSchema(REQUIRED_UNIONPAY_FIELDS, OPTIONAL_UNIONPAY_FIELDS)
  .meta({ id: 'GatewayUnionPayFields', description: "every field of the gateway's UnionPay form (event 70), decoded from EUC-KR, unknown fields included" });
