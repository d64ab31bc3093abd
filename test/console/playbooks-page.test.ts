import { translatorFor } from '../../src/console/i18n/translator';
import { playbookOrder, playbooksPage } from '../../src/console/pages/playbooks-page';
import { PLAYBOOK_KINDS, PLAYBOOKS } from '../../src/console/discrepancy-playbooks';

const LANGUAGES = ['en', 'ko'] as const;
/** What only an engineer can act on: the internal API, the CLI, the service's settings. */
const ENGINEERS_ONLY = /noti-receiver|\/v1\/|\b(?:GET|POST|PUT)\b|LEDGER_|MALL_IDS|GATEWAY_ENV|backfill/;
const order = { mallId: 'T0001234', shopOrderNo: 'ORD-PB-7' };
const orderLink = 'href="/console/orders/T0001234/ORD-PB-7"';

function sectionOf(page: string, kind: string): string {
  const match = new RegExp(`<section class="card playbook" id="${kind}">([\\s\\S]*?)</section>`).exec(page);
  if (!match) throw new Error(`no section for ${kind}`);
  return match[1]!;
}

describe('the discrepancy playbooks, for the people who settle the money', () => {
  it.each(LANGUAGES)('in %s, every kind says what to do in the console and in the merchant portal by pgCno, with the API and CLI apart', (language) => {
    for (const kind of PLAYBOOK_KINDS) {
      const playbook = PLAYBOOKS[language][kind];
      expect(playbook.console.length).toBeGreaterThan(0);
      expect(playbook.portal.length).toBeGreaterThan(0);
      // The steps an operations person follows never send them to the API or a terminal...
      expect([...playbook.console, ...playbook.portal].filter((step) => ENGINEERS_ONLY.test(step))).toEqual([]);
      // ...and the portal is searched by the payment's number.
      expect(playbook.portal.join(' ')).toContain('pgCno');
    }
  });

  it.each(LANGUAGES)('in %s, a kind whose remedy is a cancel says to cancel from the order\'s page first, where its payment has the button, before the portal', (language) => {
    const button = language === 'ko' ? '「취소」 단추' : '`Cancel` button';
    for (const kind of PLAYBOOK_KINDS) {
      const playbook = PLAYBOOKS[language][kind];
      const cancelsInPortal = playbook.portal.some((step) => /(?:^|: |and )(?:cancel (?:the|it)\b|Cancel the)|취소하세요/.test(step));
      if (cancelsInPortal) expect({ kind, here: playbook.console.some((step) => step.includes(button)) }).toEqual({ kind, here: true });
    }
  });

  it.each(LANGUAGES)('in %s, the page opened from an order shows each kind with its console and portal steps, the engineers part folded, and a link back to the order', (language) => {
    const t = translatorFor(language);
    const page = playbooksPage({ actor: 'kim', role: 'operator', csrfToken: 'x', t }, order);
    for (const kind of PLAYBOOK_KINDS) {
      const section = sectionOf(page, kind);
      expect(section).toContain(orderLink);
      const consoleSteps = new RegExp(`<h3>${t('playbooks.console')}</h3><ol>(<li>[\\s\\S]*?</li>)+</ol>`);
      expect(section).toMatch(consoleSteps);
      expect(section).toContain(`<h3>${t('playbooks.portal')}</h3><ol><li>`.replace(/'/g, '&#39;'));
      expect(section).toMatch(/<details class="engineers"><summary>[^<]+<\/summary><ol><li>/);
    }
    expect(page).toContain('ORD-PB-7');
  });

  it('links back only to an order it was given, and bounds what it takes from the query', () => {
    expect(playbookOrder({ mall: 'T0001234', order: 'ORD-1' })).toEqual({ mallId: 'T0001234', shopOrderNo: 'ORD-1' });
    expect(playbookOrder({ order: 'ORD-1' })).toBeNull();
    expect(playbookOrder({ mall: ['a', 'b'], order: 'ORD-1' })).toBeNull();
    expect(playbookOrder({ mall: 'T0001234', order: 'x'.repeat(101) })).toBeNull();
    const page = playbooksPage({ actor: 'kim', role: 'operator', csrfToken: 'x', t: translatorFor('en') }, null);
    expect(page).not.toContain('href="/console/orders/');
  });
});
