import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { blockMark, codeBlocks, documentationFiles, REPO } from './doc-blocks';

/**
 * Every code block of the README and docs/ is either run by a test or says why it cannot be: a
 * reader copies blocks, and a block nothing runs drifts from the code unseen (a consumer that
 * received nothing under any other QUEUE_NAME did, for months).
 */
const blocks = documentationFiles().flatMap(codeBlocks);
const where = (block: { file: string; line: number }): string => `${block.file}:${block.line}`;

describe('every code block in the README and docs/', () => {
  it('is marked, on the line before its fence, as run (on a fresh checkout or by a named suite) or not run with a reason', () => {
    expect(blocks.length).toBeGreaterThan(50);
    expect(blocks.filter((block) => !block.mark).map(where)).toEqual([]);
  });

  it('that is not run says why, in words', () => {
    const bare = blocks.filter((block) => block.mark?.kind === 'not-run' && block.mark.reason.split(/\s+/).length < 3);
    expect(bare.map(where)).toEqual([]);
  });

  it('that a suite runs names a suite that exists and takes its blocks through claimBlocks (which fails it on a block it does not run)', () => {
    const problems = blocks.flatMap((block) => {
      if (block.mark?.kind !== 'run-by') return [];
      const test = block.mark.test;
      if (!/^test\/.+\.test\.ts$/.test(test) || !existsSync(join(REPO, test))) return [`${where(block)}: no suite ${test}`];
      const source = readFileSync(join(REPO, test), 'utf8');
      if (!source.includes(`claimBlocks('${test}')`) || !/expect\(\w+\.untaken\(\)\)\.toEqual\(\[\]\)/.test(source)) {
        return [`${where(block)}: ${test} does not claim its blocks`];
      }
      return [];
    });
    expect(problems).toEqual([]);
  });

  it('reads the marks as meant', () => {
    expect(blockMark('<!-- ci: run -->')).toEqual({ kind: 'run', exit: 0 });
    expect(blockMark('<!-- ci: run, exit 3 -->')).toEqual({ kind: 'run', exit: 3 });
    expect(blockMark('<!-- ci: run by test/contract/x.test.ts -->')).toEqual({ kind: 'run-by', test: 'test/contract/x.test.ts' });
    expect(blockMark('<!-- ci: not run: an output sample -->')).toEqual({ kind: 'not-run', reason: 'an output sample' });
    expect(blockMark('<!-- a comment -->')).toBeNull();
  });
});
