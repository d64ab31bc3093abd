import { deserialize, serialize } from 'node:v8';
import type { BatchWrite } from './project-ledger';

/**
 * A computed batch's writes as one byte array, for its way from the projector's thread through
 * the main thread to the writer. As objects, the statements and their thousands of parameters
 * were cloned field by field twice, and walked once more on the main thread (the one that
 * answers the acks) to find the Buffers in them; bytes cross each thread as one copy.
 */
export interface PackedBatchWrite {
  packed: Uint8Array;
}

export const packBatchWrite = (write: BatchWrite): PackedBatchWrite => ({ packed: serialize(write) });

export function unpackBatchWrite(write: BatchWrite | PackedBatchWrite): BatchWrite {
  return 'packed' in write ? (deserialize(write.packed) as BatchWrite) : write;
}
