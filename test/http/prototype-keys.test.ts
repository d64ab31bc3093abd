import { readFileSync } from 'node:fs';
import { approvalNotification, encodeForm, unionPayFields } from '../../src/simulator/notification-builders';
import { startTestReceiver, type TestReceiver } from '../helpers/test-receiver';

/**
 * Fields the receiver does not know are kept as received. A field named like a
 * prototype slot (`__proto__`, `constructor`, `prototype`) is such a field: it must reach the
 * stored event and the queue as data, and no object along the way may take it as its prototype.
 */
describe('fields named like prototype slots are kept as data', () => {
  let receiver: TestReceiver;
  beforeEach(async () => (receiver = await startTestReceiver()));
  afterEach(async () => receiver.close());
  afterEach(() => {
    // Nothing a body said may have reached the shared prototype.
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  /** The JSON text with the given raw `"name":value` members before the notification's own fields. */
  function jsonWith(members: string, notification = approvalNotification()): string {
    return `{${members},${JSON.stringify(notification).slice(1)}`;
  }

  /** The forwarded line for the event, as a consumer reads it from the sink. */
  async function forwardedLine(id: string): Promise<string> {
    await receiver.forwarded(1);
    const line = readFileSync(receiver.eventsFile, 'utf8').split('\n').find((l) => l.includes(id));
    if (!line) throw new Error(`event ${id} not forwarded`);
    return line;
  }

  it('a JSON __proto__ string, constructor and prototype are in data, stored and forwarded', async () => {
    const notification = approvalNotification();
    const body = jsonWith('"__proto__":"proto-value","constructor":"ctor-value","prototype":"p-value"', notification);
    await receiver.postJson(body).expect(200);

    const [row] = await receiver.store.listEvents({});
    const stored = await receiver.store.getEvent(row!.eventId);
    const data = stored!.event.data;
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toBe('proto-value');
    expect(Object.getOwnPropertyDescriptor(data, 'constructor')?.value).toBe('ctor-value');
    expect(Object.getOwnPropertyDescriptor(data, 'prototype')?.value).toBe('p-value');
    expect(data.pgCno).toBe(notification.pgCno);

    const line = await forwardedLine(row!.eventId);
    expect(line).toContain('"__proto__":"proto-value"');
    expect(line).toContain('"constructor":"ctor-value"');
    expect(line).toContain('"prototype":"p-value"');
  });

  it('a JSON __proto__ object, at the top or nested, is data and pollutes nothing', async () => {
    const body = jsonWith('"__proto__":{"polluted":"yes"},"extra":{"__proto__":{"polluted":"nested"}}');
    await receiver.postJson(body).expect(200);

    const [row] = await receiver.store.listEvents({});
    const data = (await receiver.store.getEvent(row!.eventId))!.event.data;
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toEqual({ polluted: 'yes' });
    expect(Object.getOwnPropertyDescriptor(data.extra, '__proto__')?.value).toEqual({ polluted: 'nested' });
    // The field's value is not the object's prototype: nothing is inherited from it.
    expect('polluted' in data).toBe(false);
    const line = await forwardedLine(row!.eventId);
    expect(line).toContain('"__proto__":{"polluted":"yes"}');
    expect(line).toContain('"extra":{"__proto__":{"polluted":"nested"}}');
  });

  it('an event-70 form keeps __proto__ and constructor as fields', async () => {
    const fields = unionPayFields();
    const body = Buffer.concat([Buffer.from('__proto__=form-proto&constructor=form-ctor&'), encodeForm(fields)]);
    await receiver.postForm(body).expect(200);

    const [row] = await receiver.store.listEvents({});
    const data = (await receiver.store.getEvent(row!.eventId))!.event.data;
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toBe('form-proto');
    expect(Object.getOwnPropertyDescriptor(data, 'constructor')?.value).toBe('form-ctor');
    expect(data.cno).toBe(fields.cno);
    const line = await forwardedLine(row!.eventId);
    expect(line).toContain('"__proto__":"form-proto"');
    expect(line).toContain('"constructor":"form-ctor"');
  });

  it('a redelivery with the same __proto__ value is a duplicate, with another value a conflict', async () => {
    const notification = approvalNotification();
    await receiver.postJson(jsonWith('"__proto__":"one"', notification)).expect(200);
    await receiver.postJson(jsonWith('"__proto__":"one"', notification)).expect(200);
    expect(await receiver.count('conflicts')).toBe(0);
    await receiver.postJson(jsonWith('"__proto__":"two"', notification)).expect(200);
    expect(await receiver.count('conflicts')).toBe(1);
  });
});
