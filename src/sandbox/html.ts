import type { IncomingMessage } from 'node:http';
import { localeOf, negotiateLocale, LOCALES, type Locale } from '../console/i18n/locale';
import { translatorFor, type Translator } from '../console/i18n/translator';
import type { MessageKey } from '../console/i18n/catalogues';

/** Every value a page shows came from a caller or a notification: it is escaped, never markup. */
function escapeHtml(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A tagged template that escapes every interpolated value unless it is already `Html`. */
class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(value);
}

const STYLE = `
  :root { color-scheme: light; --ink: #1d2330; --muted: #667085; --line: #e4e7ec; --accent: #1f5eff; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans KR", sans-serif; color: var(--ink); background: #f5f6f8; }
  header { background: #fff; border-bottom: 1px solid var(--line); padding: 12px 24px; display: flex; gap: 20px; align-items: center; }
  header strong { font-size: 16px; }
  header nav a { color: var(--muted); text-decoration: none; margin-right: 14px; }
  header nav a:hover { color: var(--accent); } header nav.languages { margin-left: auto; }
  main { max-width: 1280px; margin: 24px auto; padding: 0 24px; }
  h1 { font-size: 22px; margin: 0 0 16px; }
  h2 { font-size: 17px; margin: 28px 0 10px; }
  .card { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 20px 24px; }
  .narrow { max-width: 440px; margin: 48px auto; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 6px 18px; margin: 0 0 20px; }
  dt { color: var(--muted); } dd { margin: 0; font-weight: 500; }
  .amount { font-size: 28px; font-weight: 650; margin: 4px 0 18px; }
  .buttons { display: flex; gap: 12px; }
  button { font: inherit; padding: 9px 18px; border-radius: 8px; border: 1px solid var(--line); background: #fff; cursor: pointer; }
  button.primary { background: var(--accent); border-color: var(--accent); color: #fff; font-weight: 600; }
  .buttons form, .buttons button { flex: 1; width: 100%; }
  table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid var(--line); border-radius: 10px; overflow: hidden; font-size: 13.5px; }
  th, td { text-align: left; padding: 8px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
  th { background: #fafbfc; color: var(--muted); font-weight: 600; }
  td code, .mono { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
  .tag { white-space: nowrap; display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; font-weight: 600; background: #eef2ff; color: #3730a3; }
  .ok { background: #e7f7ee; color: #067647; } .bad { background: #fdecec; color: #b42318; } .wait { background: #fff6e0; color: #935f00; }
  .muted { color: var(--muted); }
  td.ids { white-space: nowrap; font-size: 12.5px; }
  ol.attempts { margin: 0; padding-left: 18px; }
  form.inline { display: flex; flex-wrap: wrap; gap: 10px; align-items: end; }
  label { display: flex; flex-direction: column; font-size: 13px; color: var(--muted); gap: 4px; }
  input, select { font: inherit; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; }
`;

/**
 * The page's language, as the console chooses it: `?lang=ko|en` (the header's links), else the
 * browser's Accept-Language. The sandbox keeps no session, so the choice lasts one page.
 */
export function sandboxWords(req: IncomingMessage & { query?: unknown }): Translator {
  const query = (req.query ?? {}) as Record<string, unknown>;
  return translatorFor(localeOf(query.lang) ?? negotiateLocale(req.headers['accept-language']));
}

/** A message with its <code> tags as markup, every value escaped. */
export const rich = (t: Translator, key: MessageKey, values?: Record<string, string | number>): Html => new Html(t.rich(key, values).text);

const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', ko: '한국어' };

export function page(title: string, body: Html, t: Translator = translatorFor('en'), path = '/sandbox'): string {
  return html`<!doctype html>
<html lang="${t.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${t('sandbox.title')}</title><style>${new Html(STYLE)}</style></head>
<body><header><strong>${t('sandbox.title')}</strong><nav><a href="/sandbox">${t('sandbox.nav.home')}</a><a href="/sandbox/timeline">${t('sandbox.nav.timeline')}</a></nav>
<nav class="languages">${LOCALES.map((locale) => html`<a href="${path}?lang=${locale}" lang="${locale}">${LANGUAGE_NAMES[locale]}</a>`)}</nav></header>
<main>${body}</main></body></html>`.text;
}
