import { Writable } from 'node:stream';
import { createLogger } from '../../src/observability/logger';
import { maskFreeText, maskSensitive } from '../../src/observability/mask';

function captureLogger() {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', stream: new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) }) });
  return { logger, text: () => lines.join('') };
}

describe('masking', () => {
  it('a card number sent as a bare number is masked like a string one', () => {
    const { logger, text } = captureLogger();
    logger.info('x', { cardNo: 5361481234561234, nested: { accountNo: 94770201234567 } });
    expect(text()).toContain('"cardNo":"************1234"');
    expect(text()).not.toMatch(/5361481234561234|94770201234567/);
  });

  it('what lies deeper than the bound is left out, not passed through unmasked', () => {
    let deep: Record<string, unknown> = { cardNo: '5361481234561234', customerName: '홍길동' };
    for (let i = 0; i < 12; i += 1) deep = { inner: deep };
    expect(JSON.stringify(maskSensitive(deep))).not.toMatch(/5361481234561234|홍길동/);
  });

  it("free text: an IPv4 address, a broker's or a peer's, is shown whole; an account number with dots is not", () => {
    for (const text of ['amqp://127.0.0.1:5672', 'redis://10.20.30.40:6379/0', 'peer 203.233.72.150 refused', 'http://192.168.100.200:8080/x']) {
      expect(maskFreeText(text)).toBe(text);
    }
    expect(maskFreeText('account 110.123.456789')).toBe('account ***.***.**6789');
    expect(maskFreeText('account 123.456.789.012')).not.toContain('123.456.789.012');
  });

  it('free text: sensitive JSON and form values and card-like digit runs keep only what masking allows', () => {
    expect(maskFreeText('{"cardNo":"5361481234561234","pgCno":"abc","depositName":"홍길동"}')).toBe(
      '{"cardNo":"************1234","pgCno":"abc","depositName":"홍**"}',
    );
    expect(maskFreeText('res_cd=0000&customerName=Hong&x=1')).toBe('res_cd=0000&customerName=H***&x=1');
    expect(maskFreeText('paid with 4111 1111 1111 1111 at 12:00, order 12345')).toBe('paid with **** **** **** 1111 at 12:00, order 12345');
    expect(maskFreeText('{"cardNo":"53614812')).toBe('{"cardNo":"****4812');
    expect(maskFreeText('10.0.0.7, 2001:db8::1')).toBe('10.0.0.7, 2001:db8::1');
  });
});
