import { recordAudit } from '../../store/procedures/console-operators/record-audit';
import { all, get, run, type Procedure } from '../../store/procedures/procedure';

/** A gateway portal file kept between its preview and its import (migration 034). */
export interface StagedUpload {
  id: string;
  mallId: string;
  /** `transactions`, `settlement`, or `detect`: as the operator asked. */
  kind: string;
  fileName: string;
  bytes: Buffer;
  /** The operator who uploaded it: only they may import it. */
  uploadedBy: string;
  uploadedAt: string;
}

/** How long a staged file waits for its Import: an operator reads a preview in minutes, not hours. */
const STAGED_UPLOAD_MS = 60 * 60 * 1000;

const before = (at: string): string => new Date(Date.parse(at) - STAGED_UPLOAD_MS).toISOString();

/**
 * Keeps an upload for its confirmation, and deletes every staged file older than an hour in the
 * same transaction: however many files are uploaded, the table holds at most an hour's.
 */
export function* stageUpload(upload: StagedUpload): Procedure<number> {
  const pruned = yield* pruneUploads(upload.uploadedAt);
  yield* run(
    'INSERT INTO reconciliation_uploads (id, mall_id, kind, file_name, bytes, uploaded_by, uploaded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    upload.id, upload.mallId, upload.kind, upload.fileName, upload.bytes, upload.uploadedBy, upload.uploadedAt,
  );
  return pruned;
}

interface UploadRow {
  id: string; mall_id: string; kind: string; file_name: string; bytes: Uint8Array; uploaded_by: string; uploaded_at: string;
}

/** Deletes the staged files older than an hour at `now` (also hourly, so an unconfirmed file never outlives its hour by much). */
export function* pruneUploads(now: string): Procedure<number> {
  return (yield* run('DELETE FROM reconciliation_uploads WHERE uploaded_at < ?', before(now))).changes;
}

/** The staged upload of this id, unless it is older than an hour at `now`. */
export function* findUpload(id: string, now: string): Procedure<StagedUpload | null> {
  const row = yield* get<UploadRow>(
    'SELECT id, mall_id, kind, file_name, bytes, uploaded_by, uploaded_at FROM reconciliation_uploads WHERE id = ? AND uploaded_at >= ?',
    id, before(now),
  );
  if (row === undefined) return null;
  return { id: row.id, mallId: row.mall_id, kind: row.kind, fileName: row.file_name, bytes: row.bytes as Buffer, uploadedBy: row.uploaded_by, uploadedAt: row.uploaded_at };
}

/** Forgets a staged upload once it is imported: the import keeps what the ledger needs of it. */
export function* dropUpload(id: string): Procedure<void> {
  yield* run('DELETE FROM reconciliation_uploads WHERE id = ?', id);
}

/** A mall's saved column mapping for one kind of list. */
export interface SavedMapping {
  mallId: string;
  kind: string;
  /** Field -> the header text it is read from. */
  mapping: Record<string, string>;
  savedBy: string;
  savedAt: string;
}

/** Saves (or replaces) a mall's mapping, and its audit line, in one transaction. */
export function* saveMapping(saved: SavedMapping, actor: string): Procedure<void> {
  const json = JSON.stringify(saved.mapping);
  yield* run(
    `INSERT INTO reconciliation_mappings (mall_id, kind, mapping, saved_by, saved_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (mall_id, kind) DO UPDATE SET mapping = excluded.mapping, saved_by = excluded.saved_by, saved_at = excluded.saved_at`,
    saved.mallId, saved.kind, json, saved.savedBy, saved.savedAt,
  );
  yield* recordAudit({ at: saved.savedAt, actor, action: 'saved column mapping', subject: `${saved.mallId} ${saved.kind}`, detail: json });
}

/** The mall's saved mappings, one per kind of list. */
export function* mappingsOf(mallId: string): Procedure<SavedMapping[]> {
  const rows = yield* all<{ mall_id: string; kind: string; mapping: string; saved_by: string; saved_at: string }>(
    'SELECT mall_id, kind, mapping, saved_by, saved_at FROM reconciliation_mappings WHERE mall_id = ? ORDER BY kind', mallId,
  );
  return rows.map((row) => ({ mallId: row.mall_id, kind: row.kind, mapping: JSON.parse(row.mapping) as Record<string, string>, savedBy: row.saved_by, savedAt: row.saved_at }));
}
