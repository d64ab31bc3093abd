import type { ServerResponse } from 'node:http';

export type AckForm = 'json' | 'form';

/** Event 70 posts a form and expects its ack as exactly these bytes: `key=value` pairs separated by 0x1F. */
export const FORM_ACK = {
  success: 'res_cd=0000\x1fres_msg=SUCCESS',
  failure: 'res_cd=5001\x1fres_msg=FAIL',
} as const;

const JSON_TYPE = 'application/json; charset=utf-8';
const FORM_TYPE = 'text/plain; charset=utf-8';
// Built once: the success ack is the hot path's only output.
const JSON_SUCCESS = Buffer.from(JSON.stringify({ resCd: '0000', resMsg: 'SUCCESS' }));
const FORM_SUCCESS = Buffer.from(FORM_ACK.success, 'ascii');
const FORM_FAILURE = Buffer.from(FORM_ACK.failure, 'ascii');

/** The gateway answers in the form it was spoken to: a form body gets the 0x1F form. */
export function ackFormFor(contentType: string | undefined): AckForm {
  return /application\/x-www-form-urlencoded/i.test(contentType ?? '') ? 'form' : 'json';
}

/**
 * Written on node's own response (Express's is one too): no content negotiation, no ETag,
 * the bytes and their length.
 */
export function sendSuccess(res: ServerResponse, form: AckForm): void {
  if (form === 'form') send(res, 200, FORM_TYPE, FORM_SUCCESS);
  else send(res, 200, JSON_TYPE, JSON_SUCCESS);
}

/** `5001` makes the gateway retry (every 3 minutes, up to 10 times). */
export function sendFailure(res: ServerResponse, form: AckForm, httpStatus: number, reason: string): void {
  if (form === 'form') send(res, httpStatus, FORM_TYPE, FORM_FAILURE);
  else send(res, httpStatus, JSON_TYPE, jsonFailure(reason));
}

export function jsonFailure(reason: string): Buffer {
  return Buffer.from(JSON.stringify({ resCd: '5001', resMsg: reason }));
}

function send(res: ServerResponse, httpStatus: number, contentType: string, body: Buffer): void {
  res.statusCode = httpStatus;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}
