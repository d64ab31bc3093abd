import type { ColumnMapping, GatewayListKind, GatewayTransactionRow, ReadResult, SettlementRow } from '../reconciliation/file/gateway-rows';
import { importGatewayList, MAX_IMPORT_BYTES, type ImportDeps, type ImportOutcome } from '../reconciliation/import/import-list';
import { readListOffLoop } from './render/read-upload-off-loop';
import { MAX_LIST_ROWS } from './upload-reading';

export interface ConsoleImport {
  bytes: Buffer;
  fileName: string;
  mallId: string;
  /** The list's kind as the operator asked; undefined: found from the headers. */
  kind: GatewayListKind | undefined;
  /** The mapping the preview showed; null: the built-in header names. */
  mapping: ColumnMapping | null;
  actor: string;
  at: string;
}

/** Imports a confirmed upload: the whole file read again, with the mapping its preview showed. */
export type ImportGatewayFile = (request: ConsoleImport) => Promise<ImportOutcome>;

/**
 * The console's import over the one import every face uses (CLI, internal API): the same
 * refusals, the same id for the same file, the same audit line, the same matching by the ledger.
 * Only the reading differs: the console's file is read with the mapping the operator saw, on a
 * thread of its own as the preview is.
 */
export function importGatewayFileWith(deps: Omit<ImportDeps, 'read'>): ImportGatewayFile {
  return (request) => importGatewayList(
    {
      ...deps,
      read: (bytes, fileName) => readListOffLoop(bytes, fileName, {
        maxBytes: MAX_IMPORT_BYTES, maxRows: MAX_LIST_ROWS,
        ...(request.kind ? { kind: request.kind } : {}), ...(request.mapping ? { mapping: request.mapping } : {}),
      }) as Promise<ReadResult<GatewayTransactionRow | SettlementRow>>,
    },
    { bytes: request.bytes, fileName: request.fileName, mallId: request.mallId, actor: request.actor, at: request.at },
  );
}
