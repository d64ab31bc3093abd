import type { OperatorRole } from '../../store/store';
import type { Locale } from '../i18n/locale';
import type { PageName } from './page-recipes';

/** The viewer as a message carries it: its words are made again from the locale on the page thread. */
export interface ViewerData {
  actor: string;
  role: OperatorRole;
  csrfToken: string;
  here?: string;
  locale: Locale;
}

export interface PageRequest {
  id: number;
  name: PageName;
  viewer: ViewerData;
  args: unknown[];
}

export type PageReply = { id: number; ok: true; html: string } | { id: number; ok: false; error: string };
