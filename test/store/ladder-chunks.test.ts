import { ladderChunks } from '../../src/store/procedures/procedure';

describe('ladderChunks: multi-row statements of a few sizes', () => {
  it('cuts a run into powers of two, largest first, the items in their order', () => {
    const items = Array.from({ length: 37 }, (_, i) => i);
    const runs = ladderChunks(items, 2);
    expect(runs.map((run) => run.length)).toEqual([32, 4, 1]);
    expect(runs.flat()).toEqual(items);
  });

  it('keeps the per-statement cap, and gives nothing for nothing', () => {
    const runs = ladderChunks(Array.from({ length: 600 }, (_, i) => i), 2, 256);
    expect(runs.map((run) => run.length)).toEqual([256, 256, 64, 16, 8]);
    expect(ladderChunks([], 2)).toEqual([]);
  });
});
