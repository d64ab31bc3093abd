import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/**
 * One member of a zip archive (an .xlsx is one), inflated as a stream, or `null` when the archive
 * has no such member or is not one this reads (zip64, encryption: neither is what a portal writes,
 * and a file that large is over the size limit anyway). Read from the central directory, which
 * holds the true sizes even when a writer streamed its members.
 */
export function zipEntryStream(archive: Buffer, name: string): Readable | null {
  const end = endOfDirectory(archive);
  if (end < 0) return null;
  let at = archive.readUInt32LE(end + 16);
  const count = archive.readUInt16LE(end + 10);
  for (let index = 0; index < count && at + 46 <= archive.length; index += 1) {
    if (archive.readUInt32LE(at) !== DIRECTORY_ENTRY) return null;
    const method = archive.readUInt16LE(at + 10);
    const compressedSize = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const skip = nameLength + archive.readUInt16LE(at + 30) + archive.readUInt16LE(at + 32);
    const local = archive.readUInt32LE(at + 42);
    if (archive.toString('utf8', at + 46, at + 46 + nameLength) === name) return memberStream(archive, local, compressedSize, method);
    at += 46 + skip;
  }
  return null;
}

function memberStream(archive: Buffer, local: number, compressedSize: number, method: number): Readable | null {
  if (local + 30 > archive.length || archive.readUInt32LE(local) !== LOCAL_HEADER) return null;
  const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
  const data = archive.subarray(start, start + compressedSize);
  if (method === STORED) return Readable.from([data]);
  if (method !== DEFLATED) return null;
  const inflate = createInflateRaw();
  inflate.end(data);
  return inflate;
}

function endOfDirectory(archive: Buffer): number {
  const earliest = Math.max(0, archive.length - 22 - 0xffff);
  for (let at = archive.length - 22; at >= earliest; at -= 1) {
    if (archive.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  return -1;
}
