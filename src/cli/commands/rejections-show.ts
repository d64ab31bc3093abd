import type { Command } from 'commander';
import { decodeBody } from '../../notifications/decode-body';
import { cliConfig, globalOptions, masked, numericId, print, withStore, type CliIo } from '../cli-context';
import { CliFailure, EXIT } from '../../exit-codes';
import { formatFields } from '../table';
import { bodyView } from '../../console/body-view';

export function registerRejectionsShow(rejections: Command, io: CliIo): void {
  rejections
    .command('show')
    .description('one rejection: why it was refused and the body as decoded now')
    .argument('<id>', 'rejection id', numericId('rejection'))
    .action(async (id: number, _options: unknown, command: Command) => {
      const global = globalOptions(command);
      const row = await withStore(cliConfig(io, global), (store) => store.getRejection(id));
      if (!row) throw new CliFailure(`no rejection ${id}; find ids with "rejections list"`, EXIT.notFound);
      const decoded = tryDecode(row.rawBody, row.contentType);
      print(io, global, { ...row, decoded }, () => {
        const { rawBody, ...fields } = row;
        const body =
          'fields' in decoded
            ? JSON.stringify(masked(decoded.fields), null, 2)
            : `body not decodable (${decoded.error})${rawBody ? `; first bytes, masked: ${JSON.stringify(firstText(rawBody, row.contentType))}` : ''}`;
        return [formatFields([...Object.entries(fields), ['rawBody', rawBody ? `${rawBody.length} bytes` : 'not kept']]), '', body].join('\n');
      });
    });
}

function tryDecode(raw: Buffer | null, contentType: string | null): { fields: Record<string, unknown> } | { error: string } {
  if (!raw) return { error: 'the body was not kept' };
  try {
    return { fields: decodeBody(raw, contentType ?? undefined) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * The start of a body that is not fields, as the console shows it: decoded in its charset and
 * masked before it is cut. Read as latin1, a Hangul name beside a phone number escaped the name
 * rule and was printed as mojibake anyone can decode back.
 */
function firstText(raw: Buffer, contentType: string | null): string {
  const view = bodyView(raw, contentType);
  return view.kind === 'text' ? view.text.slice(0, 120) : '';
}
