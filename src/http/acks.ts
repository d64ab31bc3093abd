import type { Response } from 'express';

export type AckForm = 'json' | 'form';

/** Event 70 posts a form and expects its ack as exactly these bytes: `key=value` pairs separated by 0x1F. */
export const FORM_ACK = {
  success: 'res_cd=0000\x1fres_msg=SUCCESS',
  failure: 'res_cd=5001\x1fres_msg=FAIL',
} as const;

/** The gateway answers in the form it was spoken to: a form body gets the 0x1F form. */
export function ackFormFor(contentType: string | undefined): AckForm {
  return /application\/x-www-form-urlencoded/i.test(contentType ?? '') ? 'form' : 'json';
}

export function sendSuccess(res: Response, form: AckForm): void {
  if (form === 'form') sendForm(res, 200, FORM_ACK.success);
  else res.status(200).json({ resCd: '0000', resMsg: 'SUCCESS' });
}

/** `5001` makes the gateway retry (every 3 minutes, up to 10 times). */
export function sendFailure(res: Response, form: AckForm, httpStatus: number, reason: string): void {
  if (form === 'form') sendForm(res, httpStatus, FORM_ACK.failure);
  else res.status(httpStatus).json({ resCd: '5001', resMsg: reason });
}

function sendForm(res: Response, httpStatus: number, ack: string): void {
  res.status(httpStatus).type('text/plain').send(Buffer.from(ack, 'ascii'));
}
