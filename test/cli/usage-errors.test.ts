import { seededReceiver } from './seeded-receiver';

describe('noti-receiver usage errors', () => {
  let receiver: ReturnType<typeof seededReceiver>;
  beforeAll(() => {
    receiver = seededReceiver();
  });
  afterAll(() => receiver.cleanup());

  it('events requeue with neither an id nor --dead says what to give, exit 2', async () => {
    const result = await receiver.cli(['events', 'requeue']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/an event id .* or --dead/);
    expect(result.stderr).not.toMatch(/not both/);
  });

  it('events requeue with both an id and --dead is refused, exit 2', async () => {
    const result = await receiver.cli(['events', 'requeue', 'evt_x', '--dead']);
    expect(result).toMatchObject({ code: 2, stderr: expect.stringMatching(/not both/) });
  });

  it.each([
    [['events', 'list', '--limit', '99999999999999999999']],
    [['rejections', 'list', '--limit', '99999999999999999999']],
    [['conflicts', 'list', '--limit', '0']],
    [['rejections', 'show', '99999999999999999999']],
  ])('%j is a usage error (exit 2) with one clear line, never an SQL error', async (args) => {
    const result = await receiver.cli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^noti-receiver: (--limit must be a whole number from 1 to 1000000|a rejection id is a number)/);
    expect(result.stderr).not.toMatch(/SQL|sqlite|store/i);
  });
});
