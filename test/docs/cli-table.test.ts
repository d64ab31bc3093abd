import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program';
import { REPO } from './doc-blocks';

/** Every command a reader can type, as `events list`: the leaves of the CLI's command tree. */
function leaves(command: Command, path: string[] = []): string[] {
  const children = command.commands.filter((child) => child.name() !== 'help');
  if (children.length === 0) return [path.join(' ')];
  return children.flatMap((child) => leaves(child, [...path, child.name()]));
}

describe("docs/operations.md's table of CLI commands", () => {
  it('has a row for every command the CLI registers (as its --help lists them)', () => {
    const program = buildProgram({ env: {}, stdout: () => undefined, stderr: () => undefined });
    const commands = leaves(program);
    expect(commands).toEqual(expect.arrayContaining(['operators add', 'operators remove', 'ledger rebuild', 'events list']));
    const table = readFileSync(join(REPO, 'docs', 'operations.md'), 'utf8').split('\n').filter((line) => line.startsWith('| `'));
    const rows = new Set(table.map((line) => /^\| `([a-z ]+?)(?: [<[-]|`)/.exec(line)?.[1]).filter(Boolean));
    expect(commands.filter((command) => !rows.has(command))).toEqual([]);
  });
});
