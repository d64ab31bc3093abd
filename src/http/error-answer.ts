import { ReceiverError } from '../errors';
import { StoreUnavailable } from '../store/store';

export interface ErrorAnswer {
  httpStatus: number;
  message: string;
  keepRaw: boolean;
  /** Unexpected errors are answered (503, so the gateway retries) and logged as errors. */
  expected: boolean;
}

/** body-parser reports its failures as http-errors with a `type`; map them onto ours. */
export function answerFor(error: unknown): ErrorAnswer {
  if (error instanceof ReceiverError) {
    return { httpStatus: error.httpStatus, message: error.message, keepRaw: error.keepRaw, expected: true };
  }
  if (error instanceof StoreUnavailable) {
    return { httpStatus: 503, message: 'storage unavailable, retry later', keepRaw: false, expected: true };
  }
  const type = (error as { type?: string } | null)?.type;
  if (type === 'entity.too.large') {
    return { httpStatus: 413, message: 'body too large', keepRaw: true, expected: true };
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return { httpStatus: 415, message: 'unsupported content encoding', keepRaw: true, expected: true };
  }
  if (type === 'request.aborted' || type === 'request.size.invalid' || type === 'stream.encoding.set') {
    return { httpStatus: 400, message: 'incomplete request body', keepRaw: true, expected: true };
  }
  return { httpStatus: 503, message: 'internal error, retry later', keepRaw: false, expected: false };
}
