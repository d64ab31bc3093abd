import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { documentationFiles, REPO } from './doc-blocks';

/** The Markdown files whose links a reader follows: the README, docs/, and the benchmark report they link to. */
const files = [...documentationFiles(), 'BENCHMARKS.md'];

/** Text outside fenced blocks and inline code spans, where a `[x](y)` is really a link. */
function prose(file: string): string {
  return readFileSync(join(REPO, file), 'utf8')
    .replace(/^```[\s\S]*?^```\s*$/gm, '')
    .replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors (github-slugger): lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(file: string): Set<string> {
  const text = readFileSync(join(REPO, file), 'utf8').replace(/^```[\s\S]*?^```\s*$/gm, '');
  const seen = new Map<string, number>();
  const slugs = new Set<string>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = match[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

describe('links between the README and docs/', () => {
  const links = files.flatMap((file) =>
    [...prose(file).matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => ({ file, target })),
  );

  it('are found, so this suite cannot pass by finding none', () => {
    expect(links.length).toBeGreaterThan(20);
  });

  it('point at files that exist, and at headings those files have', () => {
    const broken = links.flatMap(({ file, target }) => {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
      if (resolved.startsWith('..') || !existsSync(join(REPO, resolved))) return [`${file}: ${target} (no such file)`];
      if (anchor === undefined) return [];
      if (statSync(join(REPO, resolved)).isDirectory() || !resolved.endsWith('.md')) return [`${file}: ${target} (an anchor into a file that has no headings)`];
      return anchors(resolved).has(anchor) ? [] : [`${file}: ${target} (no heading with that anchor)`];
    });
    expect(broken).toEqual([]);
  });
});
