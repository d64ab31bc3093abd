import { EVENT_TYPES } from '../notifications/event-types';
import type { EventSearch, OutboxStatus } from '../store/store';
import { typedText } from './typed-text';
import { kstDayStart } from './format';

export const PAGE_SIZE = 50;
const STATES: OutboxStatus[] = ['pending', 'delivered', 'dead'];
const TYPES: string[] = Object.values(EVENT_TYPES);
const DAY_MS = 24 * 60 * 60 * 1000;

/** The filter as the operator typed it: echoed back into the form and into paging links. */
export interface FilterForm {
  q: string;
  type: string;
  state: string;
  from: string;
  to: string;
}

export interface ParsedFilter {
  form: FilterForm;
  search: Omit<EventSearch, 'limit' | 'offset'>;
  page: number;
  /** True when anything narrows the list: only then is "Requeue all dead" offered (unless the state excludes dead). */
  filtered: boolean;
}

const text = (value: unknown, max: number) => typedText(value).slice(0, max);

/** Unknown values are dropped rather than refused: a stale bookmark still opens a list. */
export function parseEventFilter(input: Record<string, unknown>): ParsedFilter {
  const form: FilterForm = {
    q: text(input.q, 100),
    type: TYPES.includes(text(input.type, 40)) ? text(input.type, 40) : '',
    state: STATES.includes(text(input.state, 20) as OutboxStatus) ? text(input.state, 20) : '',
    from: kstDayStart(text(input.from, 10)) ? text(input.from, 10) : '',
    to: kstDayStart(text(input.to, 10)) ? text(input.to, 10) : '',
  };
  const search: ParsedFilter['search'] = {};
  if (form.q) search.query = form.q;
  if (form.type) search.type = form.type;
  if (form.state) search.status = form.state as OutboxStatus;
  if (form.from) search.from = kstDayStart(form.from)!;
  // "to" is a whole day in Korea, inclusive.
  if (form.to) search.to = new Date(Date.parse(kstDayStart(form.to)!) + DAY_MS).toISOString();
  const page = Math.max(1, Math.min(10_000, Number.parseInt(text(input.page, 6), 10) || 1));
  return { form, search, page, filtered: Object.values(form).some(Boolean) };
}

export function filterQuery(form: FilterForm, page?: number): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(form)) if (value) params.set(key, value);
  if (page && page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `?${query}` : '';
}

export const EVENT_TYPE_OPTIONS = TYPES;
export const STATE_OPTIONS = STATES;
