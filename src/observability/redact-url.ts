/**
 * The queue URL as it may appear in logs and /readyz: user info and query removed, because
 * both can carry credentials (`amqp://user:secret@…`, `https://…?token=…`).
 */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    url.search = '';
    url.hash = '';
    return url.toString();
  } catch {
    return raw.replace(/\/\/[^@/]*@/, '//').replace(/\?.*$/, '');
  }
}
