import { z } from 'zod';
import type { LedgerSettings } from '../ledger/ledger-settings';
import { isCurrencyCode } from '../money/format-money';

/** SPEC 7: the payment ledger's settings. */
export const ledgerEnvSettings = {
  // Only the words: a typo such as "ture" must stop the start, not silently mean false.
  LEDGER_REQUIRE_EXPECTATION: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((text) => text === 'true'),
  // The gateway retries a missing event 10 times, 3 minutes apart: 2100 s.
  LEDGER_GRACE_SECONDS: z.coerce.number({ error: 'LEDGER_GRACE_SECONDS must be a number' }).int().min(0).max(30 * 24 * 3600).default(2100),
  // Notifications state no currency: an amount of an order no expectation names one for is in this one.
  LEDGER_DEFAULT_CURRENCY: z.string().default('KRW').refine(isCurrencyCode, 'must be an ISO 4217 currency code in capitals, like KRW or USD'),
};

export function ledgerSettingsOf(config: { LEDGER_REQUIRE_EXPECTATION: boolean; LEDGER_GRACE_SECONDS: number }): LedgerSettings {
  return { requireExpectation: config.LEDGER_REQUIRE_EXPECTATION, graceSeconds: config.LEDGER_GRACE_SECONDS };
}
