/**
 * The Latin words a reader of a Korean console page sees that are not identifiers: what a label,
 * a reason or a sentence left in English looks like once the page is reduced to its text.
 *
 * Skipped: what a page marks as code or as data copied as it is (`<code>`, `<pre>`, an element of
 * class `code`, `code-tag` or `mono`, one marked `translate="no"`), scripts and styles, and every
 * attribute value (a field's name, a link's target). Nothing else: text marked `lang="en"` is
 * exactly what this looks for. Kept as identifiers, each for a reason:
 * - a token with a digit, an underscore or an `@` (ids, order numbers, codes such as `T0001234`,
 *   `evt_…`, e-mail addresses), or a URL: a reader copies them, never reads them;
 * - a name in the gateway's camelCase (`pgCno`, `cancelRemainAmount`): its own field names, which
 *   its portal and documents use too;
 * - the short list below: currency codes, the time zone every time carries, the formats the
 *   downloads and bodies are named by, the acronyms Korean writes in Latin letters as they are
 *   (ID, API, HTTP, VAN, CLI: no Korean word stands for them), the product's name, and the other
 *   language's name on the language switch.
 */
const IDENTIFIERS = new Set(['KRW', 'USD', 'KST', 'UTC', 'CSV', 'XLSX', 'JSON', 'ID', 'API', 'HTTP', 'VAN', 'CLI', 'payment-noti-receiver', 'English']);

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const SKIPPED_TAGS = new Set(['code', 'pre', 'script', 'style', 'svg']);

function skips(tag: string, attributes: string): boolean {
  if (SKIPPED_TAGS.has(tag)) return true;
  if (/\btranslate="no"/.test(attributes)) return true;
  const classes = /\bclass="([^"]*)"/.exec(attributes)?.[1]?.split(/\s+/) ?? [];
  return classes.some((c) => c === 'code' || c === 'code-tag' || c === 'mono');
}

const decode = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** The text a person reads, without what is marked as code or copied data. */
export function readableText(page: string): string {
  const out: string[] = [];
  // Each open element and whether it (or one around it) is skipped.
  const open: Array<{ tag: string; skip: boolean }> = [];
  for (const [, text, tag] of page.matchAll(/([^<]*)(<[^>]*>|$)/g)) {
    if (text && !open.some((e) => e.skip)) out.push(decode(text));
    if (!tag) continue;
    const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*?)(\/?)>$/.exec(tag);
    if (!m) continue;
    const [, closing, rawName, attributes, selfClosing] = m;
    const name = rawName!.toLowerCase();
    if (closing) {
      const at = open.map((e) => e.tag).lastIndexOf(name);
      if (at >= 0) open.splice(at);
      out.push(' ');
    } else if (!VOID.has(name) && !selfClosing) {
      open.push({ tag: name, skip: skips(name, attributes!) });
    } else {
      out.push(' ');
    }
  }
  return out.join('').replace(/\s+/g, ' ');
}

/** Each Latin word of the page's text that is no identifier, once, with a little of what first surrounds it. */
export function latinWords(page: string): string[] {
  const text = readableText(page);
  const found: string[] = [];
  for (const match of text.matchAll(/(?:https?:\/\/\S+)|[A-Za-z][A-Za-z0-9_.@+'’-]*/g)) {
    const word = match[0].replace(/[.'’-]+$/, '');
    if (/^https?:\/\//.test(word) || /[0-9_@+]/.test(word) || /^[a-z]+(?:[A-Z][a-z]*)+$/.test(word) || IDENTIFIERS.has(word)) continue;
    const at = match.index;
    if (found.some((f) => f.startsWith(`${word} «`))) continue;
    found.push(`${word} «${text.slice(Math.max(0, at - 30), at + word.length + 30).trim()}»`);
  }
  return found;
}

/**
 * A particle written for both endings (`을(를)`, `이(가)`, `(으)로`): a sentence built around a
 * value it could not know. Korean reads it as a form left unfinished; the sentence is rephrased instead.
 */
export function doubleParticles(page: string): string[] {
  return [...readableText(page).matchAll(/\S*(?:을\(를\)|를\(을\)|이\(가\)|가\(이\)|은\(는\)|는\(은\)|\(으\)로|와\(과\)|과\(와\))\S*/g)].map((m) => m[0]);
}
