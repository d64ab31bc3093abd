import { loadSource, NotificationPool } from '../../bench/load';
import { NOTI_TYPES } from '../../src/notifications/event-types';

describe('the bench\'s packed notification pool', () => {
  it('gives back every notification whole: its kind, content type and the body it was built with', () => {
    const pool = new NotificationPool();
    pool.growTo(4 * NOTI_TYPES.length);
    expect(pool.length).toBe(4 * NOTI_TYPES.length);
    const seen = new Set<string>();
    for (let i = 0; i < pool.length; i += 1) {
      const notification = pool.at(i)!;
      seen.add(notification.notiType);
      if (notification.contentType.startsWith('application/json')) {
        expect((JSON.parse(notification.body.toString('utf8')) as { notiType: string }).notiType).toBe(notification.notiType);
      } else {
        expect(notification.body.toString('latin1')).toContain(`noti_type=${notification.notiType}`);
      }
    }
    expect([...seen].sort()).toEqual([...NOTI_TYPES].sort());
    expect(pool.at(pool.length)).toBeUndefined();
  });

  it('keeps bodies apart across chunk and index growth', () => {
    const pool = new NotificationPool();
    pool.growTo(70_000);
    const source = loadSource(pool);
    const bodies = new Set<string>();
    for (let i = 0; i < 70_000; i += 1) bodies.add(pool.at(i)!.body.toString('latin1'));
    // Every notification has its own payment number or order, so every body differs.
    expect(bodies.size).toBe(70_000);
    expect(source.next().body.equals(pool.at(0)!.body)).toBe(true);
  });
});
