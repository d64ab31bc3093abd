import winston from 'winston';
import { isSensitiveKey, maskSensitive, maskValue } from './mask';

export type Logger = winston.Logger;

/** Masks every field of a log record, however it got there, before it is serialized. */
const maskFields = winston.format((info) => {
  for (const key of Object.keys(info)) {
    const value = info[key];
    if ((typeof value === 'string' || typeof value === 'number') && isSensitiveKey(key)) info[key] = maskValue(key, String(value));
    else if (value !== null && typeof value === 'object') info[key] = maskSensitive(value);
  }
  return info;
});

export function createLogger(options: { level: string; silent?: boolean; stream?: NodeJS.WritableStream }): Logger {
  const transport = options.stream
    ? new winston.transports.Stream({ stream: options.stream })
    : new winston.transports.Console();
  return winston.createLogger({
    level: options.level,
    silent: options.silent ?? false,
    format: winston.format.combine(maskFields(), winston.format.timestamp(), winston.format.json()),
    defaultMeta: { service: 'payment-noti-receiver' },
    transports: [transport],
  });
}
