import type { ExportWords } from '../exports/export-source';
import { playbookOf } from './discrepancy-playbooks';
import type { MessageKey } from './i18n/catalogues';
import type { Translator } from './i18n/translator';

/** The statuses' and kinds' names in the operator's language, from the pages' own catalogue. */
export function exportWords(t: Translator): ExportWords {
  return {
    language: t.locale,
    orderStatus: (code) => t(`orderStatus.${code}` as MessageKey),
    discrepancyKind: (code) => (t.locale === 'en' ? code : playbookOf(code, t.locale)?.name ?? code),
    eventState: (code) => t(`eventState.${code}` as MessageKey),
  };
}
