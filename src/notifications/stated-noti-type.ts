/**
 * Whether decoded fields are event 70's UnionPay form, whose snake_case names only it uses, rather
 * than the JSON layout of every other event: the form is the body that has `noti_type`.
 */
export function isUnionPayForm(fields: Readonly<Record<string, unknown>>): boolean {
  return 'noti_type' in fields;
}

/**
 * The event code a decoded body states, as sent (unchecked: a refused body's may be anything, or
 * absent), from the field its layout names it by: the form's `noti_type`, else the JSON `notiType`.
 * The same field the validation reads, so a log, a metric or a span never names another code.
 */
export function statedNotiType(fields: Readonly<Record<string, unknown>>): unknown {
  return isUnionPayForm(fields) ? fields.noti_type : fields.notiType;
}
