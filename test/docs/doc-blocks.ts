import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const REPO = join(__dirname, '..', '..');

/**
 * What the line before a block's fence says about it. Every block of the README and docs/ has one
 * (test/docs/every-block-runs.test.ts): a block a reader may copy is run by a test, and one that
 * cannot be run (a diagram, an output sample, a production setting) says why.
 *
 * - `<!-- ci: run -->` / `<!-- ci: run, exit N -->`: run by bash on a fresh checkout (docs-commands.test.ts)
 * - `<!-- ci: run by test/…/x.test.ts -->`: run by that suite, which takes it with `claimBlocks`
 * - `<!-- ci: not run: <reason> -->`
 */
export type BlockMark = { kind: 'run'; exit: number } | { kind: 'run-by'; test: string } | { kind: 'not-run'; reason: string };

export interface CodeBlock {
  file: string;
  line: number;
  lang: string;
  text: string;
  /** Marked `<!-- ci: run -->` (optionally `<!-- ci: run, exit N -->`): run by bash on a fresh checkout. */
  run: { exit: number } | null;
  mark: BlockMark | null;
}

/** The Markdown a newcomer follows: the README and everything under docs/. */
export function documentationFiles(): string[] {
  return ['README.md', ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];
}

export const MARK_LINE = /^<!--\s*ci:.*-->\s*$/;

export function blockMark(line: string): BlockMark | null {
  const run = /^<!--\s*ci:\s*run(?:,\s*exit\s+(\d+))?\s*-->\s*$/.exec(line);
  if (run) return { kind: 'run', exit: Number(run[1] ?? 0) };
  const runBy = /^<!--\s*ci:\s*run by\s+(\S+)\s*-->\s*$/.exec(line);
  if (runBy) return { kind: 'run-by', test: runBy[1]! };
  const notRun = /^<!--\s*ci:\s*not run:(.*?)-->\s*$/.exec(line);
  if (notRun) return { kind: 'not-run', reason: notRun[1]!.trim() };
  return null;
}

export function codeBlocks(file: string): CodeBlock[] {
  const lines = readFileSync(join(REPO, file), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i += 1; i < lines.length && !/^```\s*$/.test(lines[i]!); i += 1) body.push(lines[i]!);
    const mark = blockMark(lines[start - 1] ?? '');
    const run = mark?.kind === 'run' ? { exit: mark.exit } : null;
    blocks.push({ file, line: start + 1, lang: open[1] ?? '', text: body.join('\n'), run, mark });
  }
  return blocks;
}

/**
 * The blocks the docs mark `<!-- ci: run by <testFile> -->`, for the suite that runs them: `take`
 * finds one by its language and first characters and refuses a block marked for another suite (or
 * for none), and `untaken` lists the marked blocks the suite never took, which it asserts empty.
 * Call `take` at the top of the suite, so a test skipped for a missing service still counts.
 */
export function claimBlocks(testFile: string): { take: (file: string, lang: string, starts: string) => CodeBlock; untaken: () => string[] } {
  const taken = new Set<string>();
  const where = (block: CodeBlock): string => `${block.file}:${block.line}`;
  return {
    take(file, lang, starts) {
      const found = codeBlocks(file).find((b) => b.lang === lang && b.text.startsWith(starts));
      if (!found) throw new Error(`${file} has no ${lang} block starting with ${starts}`);
      if (found.mark?.kind !== 'run-by' || found.mark.test !== testFile) {
        throw new Error(`${where(found)} is not marked <!-- ci: run by ${testFile} -->`);
      }
      taken.add(where(found));
      return found;
    },
    untaken: () =>
      documentationFiles()
        .flatMap(codeBlocks)
        .filter((b) => b.mark?.kind === 'run-by' && b.mark.test === testFile && !taken.has(where(b)))
        .map(where),
  };
}

/** Shell command lines of a block, continuation lines joined, comments and `$ ` prompts removed. */
export function commandLines(block: CodeBlock): string[] {
  if (block.lang !== 'sh' && block.lang !== 'bash') return [];
  const joined = block.text.replace(/\\\n\s*/g, ' ');
  return joined
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .map((line) => line.replace(/^\s*\$ /, '').replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

/** Inline `code` spans of the prose (outside fences), where commands and variables are also named. */
export function inlineCode(file: string): string[] {
  const text = readFileSync(join(REPO, file), 'utf8').replace(/^```[\s\S]*?^```\s*$/gm, '');
  return [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
}
