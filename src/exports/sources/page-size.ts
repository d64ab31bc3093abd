/**
 * Rows read from the store per page: enough that a million rows is a thousand reads on the reader
 * (never the SQLite writer), few enough that a page and its bytes stay well under a megabyte.
 */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * Notifications per page of the Events export: a notification may be 64 KB, so a page of them is
 * read, copied to the export thread and masked there as a few megabytes, never tens of them.
 */
export const EVENT_EXPORT_PAGE_SIZE = 100;
