/** A metric family the receiver exports, with the label names its own code gives it. */
export interface Family {
  type: string;
  labels: string[];
}

/** Labels Prometheus itself adds to every scraped series, or that histograms carry. */
const TARGET_LABELS = ['instance', 'job', 'le'];

const SERIES_SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['', '_sum', '_count'] };

/** Resolves a series name (`x_bucket`) to its family (`x`), or null when nothing exports it. */
export function familyOf(series: string, families: Map<string, Family>): { name: string; family: Family } | null {
  const direct = families.get(series);
  if (direct && !SERIES_SUFFIXES[direct.type]) return { name: series, family: direct };
  for (const [name, family] of families) {
    if ((SERIES_SUFFIXES[family.type] ?? []).some((suffix) => series === `${name}${suffix}`)) return { name, family };
  }
  return null;
}

/**
 * What a PromQL expression asks of the receiver: each `noti_receiver_*` series with the
 * label names its selector matches on, and the labels it groups by. Enough for our own
 * expressions; not a PromQL parser.
 */
export function receiverSeriesIn(expr: string): { selectors: Array<{ series: string; labels: string[] }>; groupings: string[] } {
  const selectors = [...expr.matchAll(/\b(noti_receiver_[A-Za-z0-9_:]*)\s*(?:\{([^}]*)\})?/g)].map((match) => ({
    series: match[1]!,
    labels: [...(match[2] ?? '').matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*(?:=~|!~|!=|=)/g)].map((label) => label[1]!),
  }));
  const groupings = [...expr.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)].flatMap((match) =>
    match[1]!.split(',').map((label) => label.trim()).filter(Boolean),
  );
  return { selectors, groupings };
}

/** Problems with one expression: unknown series, unknown labels. */
export function problemsIn(expr: string, families: Map<string, Family>): string[] {
  const { selectors, groupings } = receiverSeriesIn(expr);
  const problems: string[] = [];
  if (selectors.length === 0) problems.push(`"${expr}" names no noti_receiver_* metric`);
  const known = new Set(TARGET_LABELS);
  for (const { series, labels } of selectors) {
    const found = familyOf(series, families);
    if (!found) {
      problems.push(`${series} is not exported by the receiver`);
      continue;
    }
    found.family.labels.forEach((label) => known.add(label));
    for (const label of labels) {
      if (!found.family.labels.includes(label) && !TARGET_LABELS.includes(label)) problems.push(`${series} has no label "${label}"`);
    }
  }
  for (const label of groupings) {
    if (!known.has(label)) problems.push(`grouping by "${label}", which none of its metrics has`);
  }
  return problems;
}
