import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Writable } from 'node:stream';
import winston from 'winston';
import { scalarJsonLine } from '../../src/observability/json-line';
import { createLogger } from '../../src/observability/logger';
import { StdoutLines } from '../../src/observability/stdout-lines';

const MESSAGE = Symbol.for('message');

describe('log lines', () => {
  it("a record of scalars is serialized exactly as logform's json() writes it", () => {
    const json = winston.format.json();
    const written = (record: Record<string, unknown>) => json.transform({ ...record, level: 'info', message: 'm' }, json.options) as Record<symbol, unknown>;
    const records: Array<Record<string, unknown>> = [
      { service: 'payment-noti-receiver', eventId: 'evt_1', type: 'payment.approved', pgCno: 'P1', shopOrderNo: null, sourceIp: '127.0.0.1' },
      { zeta: 1, Alpha: 2, alpha: 3, _x: -0, big: 1e21, small: 1.5e-7, nan: Number.NaN, inf: -Infinity, yes: true, no: false, gone: undefined },
      { text: '홍길동 "quoted" \\ back\nslash\ttab\u0000nul\u001f', lone: '\ud800x\udfff', emoji: '😀', empty: '', '': 'empty key', 'ké "y"': 'v' },
      { constructor: 'c', toString: 's', hasOwnProperty: 'h', valueOf: 1 },
    ];
    for (const record of records) {
      const expected = written(record)[MESSAGE];
      expect(scalarJsonLine({ ...record, level: 'info', message: 'm' })).toBe(expected);
    }
  });

  it('a record the native serializer would reorder or that holds an object is left to json()', () => {
    expect(scalarJsonLine({ b: 1, 10: 'x', 9: 'y' })).toBeNull();
    expect(scalarJsonLine(JSON.parse('{"__proto__": "p"}') as Record<string, unknown>)).toBeNull();
    expect(scalarJsonLine({ nested: { a: 1 } })).toBeNull();
    expect(scalarJsonLine({ list: [1] })).toBeNull();
    expect(scalarJsonLine({ n: 1n })).toBeNull();
  });

  it('the lines of one event-loop turn reach stdout in one write, after the turn', async () => {
    const writes: string[] = [];
    const transport = new StdoutLines({ write: (text: string) => writes.push(text) });
    const logger = winston.createLogger({ level: 'info', format: winston.format.json(), transports: [transport] });
    try {
      for (let i = 0; i < 5; i += 1) logger.info('line', { i });
      expect(writes).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(writes).toHaveLength(1);
      expect(writes[0]!.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { i: number }).i)).toEqual([0, 1, 2, 3, 4]);
    } finally {
      logger.close();
    }
  });

  it('lines still buffered when the process exits are written before it ends', () => {
    const built = resolve(__dirname, '..', '..', 'dist', 'observability', 'logger.js');
    if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build (npm test does)`);
    // process.exit in the same turn: the setImmediate write never runs, only the exit flush can.
    const script = `const l = require(${JSON.stringify(built)}).createLogger({ level: 'info' });
      for (let i = 0; i < 3; i += 1) l.info('before exit', { i });
      process.exit(0);`;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(child.status).toBe(0);
    const lines = child.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { message: string; i: number });
    expect(lines.map((line) => [line.message, line.i])).toEqual([['before exit', 0], ['before exit', 1], ['before exit', 2]]);
  });
  it('a record below the level is dropped before anything reads or masks it; a level changed later counts', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', stream: new Writable({ write: (chunk, _enc, done) => { lines.push(String(chunk)); done(); } }) });
    let reads = 0;
    const context = { get eventId() { reads += 1; return 'evt_1'; } };
    logger.info('notification accepted', context);
    logger.debug('detail', context);
    expect(reads).toBe(0);
    logger.warn('kept', context);
    logger.level = 'info';
    logger.info('now kept', context);
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(lines.map((line) => (JSON.parse(line) as { message: string; eventId: string }).message)).toEqual(['kept', 'now kept']);
    expect(lines.every((line) => (JSON.parse(line) as { eventId: string }).eventId === 'evt_1')).toBe(true);
  });
});
