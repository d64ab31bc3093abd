import winston from 'winston';
import { isoClock } from '../iso-clock';
import { scalarJsonLine } from './json-line';
import { maskCardText } from './card-numbers';
import { isSensitiveKey, maskSensitive, maskValue } from './mask';
import { MESSAGE, StdoutLines } from './stdout-lines';

export type Logger = winston.Logger;

/**
 * Masks every field of a log record, however it got there (personal fields by name, card data in
 * every text), stamps it and serializes it: the
 * line `combine(mask, timestamp(), json())` wrote, in one pass, with the time text built once
 * per millisecond and a record of scalars serialized without logform's generic walk.
 */
function logLine(): winston.Logform.Format {
  const json = winston.format.json();
  const now = isoClock();
  return winston.format((info) => {
    for (const key of Object.keys(info)) {
      const value = info[key];
      if ((typeof value === 'string' || typeof value === 'number') && isSensitiveKey(key)) info[key] = maskValue(key, String(value));
      else if (value !== null && typeof value === 'object') info[key] = maskSensitive(value);
      // A card number or a card's secret in the message or any other text field (a quoted body).
      else if (typeof value === 'string') info[key] = maskCardText(value);
    }
    if (!info.timestamp) info.timestamp = now();
    const line = scalarJsonLine(info);
    if (line === null) return json.transform(info, json.options);
    (info as Record<symbol, unknown>)[MESSAGE] = line;
    return info;
  })();
}

/**
 * JSON lines to stdout (written once per event-loop turn, see StdoutLines), or to `stream`, a
 * line at a time, for tests that read what was logged.
 */
export function createLogger(options: { level: string; silent?: boolean; stream?: NodeJS.WritableStream }): Logger {
  const transport = options.stream ? new winston.transports.Stream({ stream: options.stream }) : new StdoutLines();
  return winston.createLogger({
    level: options.level,
    silent: options.silent ?? false,
    format: logLine(),
    defaultMeta: { service: 'payment-noti-receiver' },
    transports: [transport],
  });
}
