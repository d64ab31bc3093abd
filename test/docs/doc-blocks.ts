import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const REPO = join(__dirname, '..', '..');

export interface CodeBlock {
  file: string;
  line: number;
  lang: string;
  text: string;
  /** Marked `<!-- ci: run -->` (optionally `<!-- ci: run, exit N -->`) on the line before the fence. */
  run: { exit: number } | null;
}

/** The Markdown a newcomer follows: the README and everything under docs/. */
export function documentationFiles(): string[] {
  return ['README.md', ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];
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
    const marker = /^<!--\s*ci:\s*run(?:,\s*exit\s+(\d+))?\s*-->\s*$/.exec(lines[start - 1] ?? '');
    blocks.push({ file, line: start + 1, lang: open[1] ?? '', text: body.join('\n'), run: marker ? { exit: Number(marker[1] ?? 0) } : null });
  }
  return blocks;
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
