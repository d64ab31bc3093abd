import { z } from 'zod';
import type { LedgerSettings } from './ledger-settings';
import { isCurrencyCode } from '../money/format-money';

/** The payment ledger's settings. */
export const ledgerEnvSettings = {
  // Only the words: a typo such as "ture" must stop the start, not silently mean false.
  LEDGER_REQUIRE_EXPECTATION: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((text) => text === 'true'),
  // The gateway retries a missing event 10 times, 3 minutes apart: 2100 s.
  LEDGER_GRACE_SECONDS: z.coerce.number({ error: 'LEDGER_GRACE_SECONDS must be a number' }).int().min(0).max(30 * 24 * 3600).default(2100),
  // The currency amounts are shown in where no expectation names one (notifications state none).
  LEDGER_DEFAULT_CURRENCY: z
    .string()
    .trim()
    .default('KRW')
    .refine(isCurrencyCode, { message: 'must be an ISO 4217 currency code in capitals, such as KRW or USD' }),
};

export function ledgerSettingsOf(config: { LEDGER_REQUIRE_EXPECTATION: boolean; LEDGER_GRACE_SECONDS: number }): LedgerSettings {
  return { requireExpectation: config.LEDGER_REQUIRE_EXPECTATION, graceSeconds: config.LEDGER_GRACE_SECONDS };
}
