import { activitySeries } from '../../src/console/activity-series';
import { EVENT_TYPES } from '../../src/notifications/event-types';

const NOW = new Date('2026-11-21T05:30:00.000Z');

describe("the overview's notifications per hour", () => {
  test('every series has a colour of its own, the gateway\'s eight types and any other beside them', () => {
    const types = [...Object.values(EVENT_TYPES), 'other.one', 'other.two', 'other.three'];
    const { series } = activitySeries(types.map((type) => ({ hour: '2026-11-21T04', type, count: 1 })), NOW);
    expect(series).toHaveLength(types.length);
    expect(new Set(series.map((s) => s.colour)).size).toBe(types.length);
  });

  test('a type keeps its colour whatever else the day holds', () => {
    const alone = activitySeries([{ hour: '2026-11-21T04', type: 'refund.completed', count: 2 }], NOW).series[0]!;
    const busy = activitySeries(Object.values(EVENT_TYPES).map((type) => ({ hour: '2026-11-21T04', type, count: 1 })), NOW).series.find((s) => s.type === 'refund.completed')!;
    expect(busy.colour).toBe(alone.colour);
  });
});
