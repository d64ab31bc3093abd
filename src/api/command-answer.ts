import type { Response } from 'express';
import { isFinal, publicRecord, type StoredCommand } from '../commands/command-record';

/** 200 when the state is final; 202 with where to look while the service is still resending. */
export function answerCommand(res: Response, command: StoredCommand): void {
  if (!isFinal(command.state)) {
    res.status(202).location(`/v1/commands/${encodeURIComponent(command.shopTransactionId)}`);
  } else {
    res.status(200);
  }
  res.json(publicRecord(command));
}
