/**
 * The DATABASE_URL schemes and the database each names: the one place that tells `sqlite:PATH`
 * from `postgres://…`, read by the configuration, the CLI and the store's opener alike.
 */
const DATABASE_SCHEMES = { 'sqlite:': 'sqlite', 'postgres://': 'postgres', 'postgresql://': 'postgres' } as const;

export type DatabaseKind = (typeof DATABASE_SCHEMES)[keyof typeof DATABASE_SCHEMES];

export interface DatabaseLocation {
  kind: DatabaseKind;
  /** SQLite's file path (or `:memory:`); PostgreSQL's whole connection URL. */
  location: string;
}

/** Which database `url` names and where, or null when it names none (the configuration refuses it). */
export function databaseOf(url: string): DatabaseLocation | null {
  for (const [prefix, kind] of Object.entries(DATABASE_SCHEMES)) {
    if (!url.startsWith(prefix)) continue;
    const location = kind === 'sqlite' ? url.slice(prefix.length) : url;
    return location ? { kind, location } : null;
  }
  return null;
}
