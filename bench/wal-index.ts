/**
 * SQLite's WAL accounting, read from the files themselves (https://www.sqlite.org/walformat.html).
 * A WAL is a 32-byte header then frames of a 24-byte header and one page; the wal-index (-shm)
 * starts with two copies of a 48-byte header whose `mxFrame` is the WAL's last valid frame and
 * whose salts change each time a writer rewinds the WAL to its start.
 */
export const WAL_HEADER_BYTES = 32;
export const WAL_FRAME_HEADER_BYTES = 24;
const INDEX_HEADER_BYTES = 48;

/** Frames (pages) between two sizes of a WAL that only grew (no rewind), and its bytes. */
export function walGrowth(sizeBefore: number, sizeAfter: number, pageSize: number): { frames: number; bytes: number } {
  const bytes = Math.max(0, sizeAfter - sizeBefore);
  // The file's own header is written with its first frame, not per frame.
  const framed = sizeBefore === 0 && bytes > 0 ? bytes - WAL_HEADER_BYTES : bytes;
  return { frames: Math.round(framed / (pageSize + WAL_FRAME_HEADER_BYTES)), bytes };
}

export interface IndexHeader {
  mxFrame: number;
  /** Changes when the WAL is rewound (salt-1 is incremented, salt-2 drawn anew). */
  salt: string;
}

/**
 * The wal-index header, or null while a writer is changing it (its two copies differ) or before
 * any connection built it. Native byte order: SQLite writes the -shm in the machine's own.
 */
export function readIndexHeader(shm: Buffer): IndexHeader | null {
  if (shm.length < 2 * INDEX_HEADER_BYTES) return null;
  const first = shm.subarray(0, INDEX_HEADER_BYTES);
  if (!first.equals(shm.subarray(INDEX_HEADER_BYTES, 2 * INDEX_HEADER_BYTES)) || first[12] === 0) return null;
  return { mxFrame: first.readUInt32LE(16), salt: first.subarray(32, 40).toString('hex') };
}

/**
 * Frames written to a WAL over time from samples of its index header: within one generation
 * (salt) the growth of `mxFrame`; a new salt starts a generation from 0, its predecessor counted
 * up to its last sample. Frames a generation gained after its last sample are missed, so sample
 * often; a rewind only follows a checkpoint that copied the whole WAL, which takes longer than a
 * sample's interval after the last write.
 */
export class FrameTally {
  private salt: string | null = null;
  private last = 0;
  private counted = 0;
  /** Rewinds seen. */
  rewinds = 0;

  sample(header: IndexHeader | null): void {
    if (header === null) return;
    if (this.salt === null) {
      this.salt = header.salt;
      this.last = header.mxFrame;
      return;
    }
    if (header.salt !== this.salt) {
      this.salt = header.salt;
      this.rewinds += 1;
      this.last = 0;
    }
    if (header.mxFrame > this.last) {
      this.counted += header.mxFrame - this.last;
      this.last = header.mxFrame;
    }
  }

  /** Frames written since the first sample. */
  get frames(): number {
    return this.counted;
  }
}
