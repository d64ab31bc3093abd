import { z } from 'zod';
import { mallId, requiredShopTransactionId } from './field-rules';

/** The gateway's VAN payloads are unpublished: the body passes through, it only has to name the mall and the key. */
const vanBody = (id: string) =>
  z.looseObject({ mallId, shopTransactionId: requiredShopTransactionId }).meta({ id, description: 'passed through to the gateway as given; other fields are not checked' });

export const vanApprovalBody = vanBody('VanApproval');
export const vanCancelBody = vanBody('VanCancellation');
