import { parse } from 'lossless-json';
import { decodeBody } from '../../src/notifications/decode-body';
import { NOTI_TYPES } from '../../src/notifications/event-types';
import { planNotifications } from '../../src/simulator/scenario';

/** What the lossless parser alone makes of a body: the reference the native fast path must match. */
const lossless = (text: string) => parse(text, null, (digits: string) => digits);
const json = (text: string) => decodeBody(Buffer.from(text, 'utf8'), 'application/json');

describe('flat string-only JSON read by the native parser', () => {
  test("every event type's notification decodes exactly as the lossless parser reads it", () => {
    const bodies = planNotifications(NOTI_TYPES, 3).filter((n) => n.contentType.startsWith('application/json'));
    expect(bodies.length).toBeGreaterThan(0);
    for (const { body } of bodies) expect(json(body.toString('utf8'))).toEqual(lossless(body.toString('utf8')));
  });

  test('colons, braces, digits and escapes inside strings change nothing', () => {
    const text = '{"resMsg":"a:b {c} [1] \\"2\\" -3","shopOrderNo":"ORD:1","name":"\\uD55C\\uAE00"}';
    expect(json(text)).toEqual(lossless(text));
    expect(json(text)).toEqual({ resMsg: 'a:b {c} [1] "2" -3', shopOrderNo: 'ORD:1', name: '한글' });
  });

  test('a repeated name is still told apart: the same value accepted, another value refused', () => {
    expect(json('{"amount":"1000","amount":"1000"}')).toEqual({ amount: '1000' });
    expect(() => json('{"amount":"1000","amount":"9000"}')).toThrow(/a field name repeats with another value/);
  });

  test('bare numbers and nested values keep their exact digits', () => {
    expect(json('{"pgCno":26112100000000000001,"amount":"1"}')).toEqual({ pgCno: '26112100000000000001', amount: '1' });
    expect(json('{"basket":{"pgCno":26112100000000000002}}')).toEqual({ basket: { pgCno: '26112100000000000002' } });
  });

  test('a field named __proto__ is an own field, as the lossless parser makes it', () => {
    const text = '{"__proto__":"x","mallId":"T0001234"}';
    expect(json(text)).toEqual(lossless(text));
    expect(Object.keys(json(text))).toEqual(Object.keys(lossless(text) as object));
  });

  test('a syntax error is described by position whichever parser saw it first', () => {
    expect(() => json('{"a":"1",}')).toThrow(/^malformed JSON: unexpected character at line 1, column \d+ \(byte \d+\)$/);
    expect(() => json('{"a":"1"')).toThrow(/^malformed JSON: the body ends too early/);
  });
});
