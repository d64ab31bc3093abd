/** The console's languages: Korean for the shop's operations staff, English for everyone else. */
export const LOCALES = ['en', 'ko'] as const;
export type Locale = (typeof LOCALES)[number];

export function localeOf(value: unknown): Locale | null {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value) ? (value as Locale) : null;
}

/** The BCP 47 tag Intl formats numbers, money and dates with. */
export const INTL_LOCALE: Record<Locale, string> = { en: 'en-US', ko: 'ko-KR' };

/**
 * The language the browser prefers among ours (`Accept-Language`, by its q-values, first listed
 * first among equals): Korean when it comes before English, else English.
 */
export function negotiateLocale(acceptLanguage: string | undefined): Locale {
  if (!acceptLanguage) return 'en';
  const ranges = acceptLanguage.slice(0, 1000).split(',').map((part, index) => {
    const [tag = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    return { language: tag.trim().toLowerCase().split('-')[0]!, q: q === undefined ? 1 : Number(q), index };
  });
  const wanted = ranges.filter((r) => r.q > 0 && (r.language === 'ko' || r.language === 'en'))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return wanted[0]?.language === 'ko' ? 'ko' : 'en';
}
