import type { CommandKind } from '../../store/command-types';
import { html, type SafeHtml } from '../html';
import type { MessageKey } from '../i18n/catalogues';
import type { Translator } from '../i18n/translator';

const COMMAND_KIND_NAMES: Readonly<Record<CommandKind, MessageKey>> = {
  'wallet-a.create': 'commandKind.walletCreate',
  'wallet-b.cancel': 'commandKind.walletCancel',
  'van.approve': 'commandKind.vanApprove',
  'van.cancel': 'commandKind.vanCancel',
};

/** What a command does in the page's words, its kind small beside; English keeps the kind (what the API and the CLI print). */
export function commandKindName(t: Translator, kind: string): SafeHtml {
  const key = Object.prototype.hasOwnProperty.call(COMMAND_KIND_NAMES, kind) ? COMMAND_KIND_NAMES[kind as CommandKind] : undefined;
  return key && t.locale !== 'en' ? html`${t(key)} <code class="code-tag">${kind}</code>` : html`<span class="code">${kind}</span>`;
}
