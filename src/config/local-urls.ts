import type { Config } from './env';

/**
 * Where a tool on this machine reaches a listener of the receiver: 0.0.0.0 and :: mean "every
 * interface" to a listener, not an address to call, so those become 127.0.0.1.
 */
function localUrl(host: string, port: number): string {
  const callable = ['0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host;
  return `http://${callable.includes(':') ? `[${callable}]` : callable}:${port}`;
}

/** The notification URL of the receiver these settings (`.env` and the environment) start. */
export function notificationUrl(config: Pick<Config, 'HOST' | 'PORT' | 'NOTIFY_PATH'>): string {
  return `${localUrl(config.HOST, config.PORT)}${config.NOTIFY_PATH}`;
}

/** The admin listener (probes, metrics, console) of the receiver these settings start. */
export function adminUrl(config: Pick<Config, 'ADMIN_HOST' | 'ADMIN_PORT'>): string {
  return localUrl(config.ADMIN_HOST, config.ADMIN_PORT);
}
