import { connectionConfig } from '../../src/store/postgres/pool';

const timeoutOf = (url: string, options = {}) => connectionConfig(url, options).connectionTimeoutMillis;

describe("PostgreSQL's connect timeout", () => {
  it('is 2 s unless told otherwise', () => {
    expect(timeoutOf('postgres://db.internal:5432/payments')).toBe(2000);
  });

  it("takes libpq's connect_timeout, in seconds, from the URL", () => {
    expect(timeoutOf('postgres://db.internal:5432/payments?connect_timeout=7')).toBe(7000);
    expect(timeoutOf('postgres://u:p@db.internal/payments?sslmode=require&connect_timeout=0.5')).toBe(500);
  });

  it('keeps the default for a connect_timeout that is not a positive number (libpq reads 0 as no limit; a store never waits forever)', () => {
    for (const value of ['0', '', 'abc', '-3']) expect(timeoutOf(`postgres://db.internal/payments?connect_timeout=${value}`)).toBe(2000);
  });

  it("lets the caller's own timeout win over the URL's", () => {
    expect(timeoutOf('postgres://db.internal/payments?connect_timeout=7', { connectTimeoutMs: 500 })).toBe(500);
  });
});
