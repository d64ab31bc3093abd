import { en, type MessageKey } from './en';
import { ko } from './ko';
import type { Locale } from './locale';

export type { MessageKey } from './en';

/** One catalogue per language, the same keys in each. */
export const CATALOGUES: Record<Locale, Record<MessageKey, string>> = { en, ko };
