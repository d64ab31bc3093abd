/**
 * Every way a request can fail, each answered once in the gateway's ack form. `keepRaw`
 * says the raw request goes to the rejections table for an operator; a forbidden source
 * is never stored (anyone on the internet can send one).
 */
export abstract class ReceiverError extends Error {
  abstract readonly httpStatus: number;
  abstract readonly keepRaw: boolean;
}

export class InvalidNotification extends ReceiverError {
  override readonly name = 'InvalidNotification';
  readonly httpStatus = 400;
  readonly keepRaw = true;
  constructor(message: string, readonly notiType: string = 'unknown') {
    super(message);
  }
}

export class ForbiddenSource extends ReceiverError {
  override readonly name = 'ForbiddenSource';
  readonly httpStatus = 403;
  readonly keepRaw = false;
  constructor(readonly address: string) {
    // Anyone may send this and read the answer: it names only their own address, never the
    // allowlist nor the settings; the receiver's log, which only its operators read, says how.
    super(`source address ${address} is not allowed (the receiver's log says how to allow an address)`);
  }
}

export class PayloadTooLarge extends ReceiverError {
  override readonly name = 'PayloadTooLarge';
  readonly httpStatus = 413;
  readonly keepRaw = true;
}

export class UnsupportedMediaType extends ReceiverError {
  override readonly name = 'UnsupportedMediaType';
  readonly httpStatus = 415;
  readonly keepRaw = true;
}

