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
  const logger = winston.createLogger({
    level: options.level,
    silent: options.silent ?? false,
    format: logLine(),
    defaultMeta: { service: 'payment-noti-receiver' },
    transports: [transport],
  });
  skipDisabledLevels(logger);
  return logger;
}

/**
 * winston masks, stamps and serializes a record (the format) before its transport looks at the
 * level and drops it: at LOG_LEVEL=warn every accepted notification still paid for its info line.
 * Each level's method asks first; the level is read at every call, so a later `logger.level = …`
 * still counts. A record through `logger.log(level, …)` takes winston's own way.
 */
function skipDisabledLevels(logger: Logger): void {
  const methods = logger as unknown as Record<string, (...args: unknown[]) => Logger>;
  for (const level of Object.keys(logger.levels)) {
    const write = methods[level];
    if (typeof write !== 'function') continue;
    methods[level] = function (this: Logger | undefined, ...args: unknown[]): Logger {
      const self = this ?? logger;
      return self.isLevelEnabled(level) ? write.apply(self, args) : self;
    };
  }
}
