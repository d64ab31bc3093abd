import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { CATALOGUES } from '../../src/console/i18n/catalogues';
import { negotiateLocale } from '../../src/console/i18n/locale';
import { translatorFor } from '../../src/console/i18n/translator';
import { PLAYBOOK_KINDS, PLAYBOOKS } from '../../src/console/discrepancy-playbooks';
import { DISCREPANCY_KINDS, ORDER_STATUSES } from '../../src/ledger/fold/order-record';
import { EXPECTATION_METHODS } from '../../src/ledger/fold/ledger-facts';
import { COMMAND_STATES } from '../../src/store/command-types';
import { OPERATOR_ROLES } from '../../src/store/store';

const CONSOLE_DIR = join(__dirname, '..', '..', 'src', 'console');
const SANDBOX_DIR = join(__dirname, '..', '..', 'src', 'sandbox');
const { en, ko } = CATALOGUES;
const keys = (catalogue: Record<string, string>) => Object.keys(catalogue).sort();

function sources(dir: string): Array<{ file: string; text: string }> {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.includes(`${join('console', 'i18n')}`) ? [{ file: path, text: readFileSync(path, 'utf8') }] : [];
  });
}

/** The names a message's placeholders and tags use: a translation must use the same ones. */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.argument || element.type === TYPE.number || element.type === TYPE.date || element.type === TYPE.time) into.add(element.value);
    if (element.type === TYPE.tag) {
      into.add(`<${element.value}>`);
      argumentsOf(element.children, into);
    }
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      into.add(element.value);
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    }
  }
  return into;
}

/** The values a key built from a template (`orderStatus.${status}`) can take. */
const TEMPLATE_VALUES: Record<string, readonly string[]> = {
  'commandState.': COMMAND_STATES,
  'eventState.': ['pending', 'delivered', 'dead'],
  'method.': EXPECTATION_METHODS,
  'orderStatus.': ORDER_STATUSES,
  'role.': OPERATOR_ROLES,
};

describe("the console's catalogues", () => {
  test('English and Korean hold the same keys', () => {
    expect(keys(ko)).toEqual(keys(en));
    // Not only the same keys: no message left empty or in the other language's words.
    for (const key of keys(en)) expect(ko[key as keyof typeof ko].trim()).not.toBe('');
  });

  test('every message parses as ICU MessageFormat, and each translation uses the same placeholders and tags', () => {
    for (const key of keys(en)) {
      const enArgs = argumentsOf(parse(en[key as keyof typeof en]));
      expect({ key, args: [...argumentsOf(parse(ko[key as keyof typeof ko]))].sort() }).toEqual({ key, args: [...enArgs].sort() });
      expect(() => new IntlMessageFormat(ko[key as keyof typeof ko], 'ko-KR')).not.toThrow();
    }
  });

  test('every key a page (of the console or the sandbox) names is in the catalogues, including the ones built from a status, role or method', () => {
    const namespaces = new Set(keys(en).map((key) => key.split('.')[0]));
    const missing: string[] = [];
    for (const { file, text } of [...sources(CONSOLE_DIR), ...sources(SANDBOX_DIR)]) {
      for (const [, key] of text.matchAll(/'([a-z][A-Za-z0-9]*\.[A-Za-z0-9_.]+)'/g)) {
        if (namespaces.has(key!.split('.')[0]) && !(key! in en)) missing.push(`${file}: ${key}`);
      }
      for (const [, prefix, suffix] of text.matchAll(/\bt(?:\.rich)?\(`([A-Za-z]+\.)\$\{[^}]+\}([A-Za-z.]*)`/g)) {
        const values = TEMPLATE_VALUES[prefix!];
        if (!values) missing.push(`${file}: ${prefix}\${…}${suffix} has no list of values in this test`);
        for (const value of values ?? []) if (!(`${prefix}${value}${suffix}` in en)) missing.push(`${file}: ${prefix}${value}${suffix}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('a key no catalogue has is printed as itself, which the page tests look for', () => {
    const t = translatorFor('ko');
    expect(t('orders.title')).toBe('주문');
    expect(t('orders.nosuchkey' as never)).toBe('orders.nosuchkey');
  });

  test('every discrepancy kind has a playbook in each language: a name, a plain line and what to do', () => {
    for (const kind of [...DISCREPANCY_KINDS, 'conflicting_notification', 'refused_notification', 'unknown_refund_amount'] as const) {
      expect(PLAYBOOK_KINDS).toContain(kind);
      for (const language of ['en', 'ko'] as const) {
        const playbook = PLAYBOOKS[language][kind];
        expect(playbook.name && playbook.line && playbook.means).toBeTruthy();
        // What to check and how to settle are now steps in the console and in the merchant portal, with the engineers' apart.
        expect(playbook.console.length).toBeGreaterThan(0);
        expect(playbook.portal.length).toBeGreaterThan(0);
      }
    }
    expect(PLAYBOOKS.ko.remaining_mismatch).toMatchObject({ name: '남은 금액 불일치', line: '게이트웨이가 알린 취소 후 잔액이 장부와 다릅니다.' });
  });

  test('money and dates follow the language: 12,000원 and ₩12,000, $12.03 in both, KST either way', () => {
    const [english, korean] = [translatorFor('en'), translatorFor('ko')];
    expect(korean.money(12000, 'KRW')).toBe('12,000원');
    expect(english.money(12000, 'KRW')).toBe('₩12,000');
    expect(english.money(1203, 'USD')).toBe('$12.03');
    expect(korean.money(1203, 'USD')).toBe('US$12.03');
    expect(english.time('2026-11-22T00:10:00Z')).toBe('2026-11-22 09:10:00 KST');
    expect(korean.time('2026-11-22T00:10:00Z')).toBe('2026. 11. 22. 09:10:00 KST');
    expect(korean('order.openCount', { count: 3 })).toBe('미해결 불일치 3건');
    expect(english('order.openCount', { count: 1 })).toBe('1 open discrepancy');
  });
});

describe('the language a browser gets', () => {
  test.each([
    ['ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7', 'ko'],
    ['ko', 'ko'],
    ['en-US,en;q=0.9,ko;q=0.8', 'en'],
    ['fr-FR,fr;q=0.9,ko;q=0.5', 'ko'],
    ['en;q=0.5,ko;q=0.6', 'ko'],
    ['ko;q=0,en', 'en'],
    ['de-DE', 'en'],
    ['', 'en'],
    [undefined, 'en'],
    ['ko;q=abc, ;;,,', 'ko'],
    [`${'x-y;q=0.1,'.repeat(500)}ko`, 'en'],
  ])('Accept-Language %j speaks %s', (header, locale) => {
    expect(negotiateLocale(header)).toBe(locale);
  });
});
