/**
 * Rows read from the store per page: enough that a million rows is a thousand reads on the reader
 * (never the SQLite writer), few enough that a page and its bytes stay well under a megabyte.
 */
export const EXPORT_PAGE_SIZE = 1000;
