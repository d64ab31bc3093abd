import { z } from 'zod';
import { mallId, requiredShopTransactionId } from './field-rules';

/** The gateway's VAN payloads are unpublished: the body passes through, it only has to name the mall and the key. */
const vanBody = (id: string, fields: z.ZodRawShape = {}) =>
  z.looseObject({ mallId, shopTransactionId: requiredShopTransactionId, ...fields }).meta({ id, description: 'passed through to the gateway as given; other fields are not checked' });

export const vanApprovalBody = vanBody('VanApproval');
/**
 * A VAN cancel that names its payment (`pgCno`, the approval's event-70 `cno`) is held to what is
 * left of it, like a wallet-b cancel: a text, so no other type can pass by the check unread.
 */
export const vanCancelBody = vanBody('VanCancellation', {
  pgCno: z.string().regex(/^[A-Za-z0-9]{1,20}$/, 'must be 1-20 letters or digits').optional()
    .meta({ description: 'the payment to cancel (its event 70 cno): the cancel is then refused (409) when nothing is left of it', example: '20261122000012345678' }),
});
