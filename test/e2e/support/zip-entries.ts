// Reads a zip archive's files, as a store reads a package: the central directory for the names,
// then each file's data (stored, or deflated). Enough for the packages web-ext writes (no zip64,
// no encryption); anything else throws.
import { inflateRawSync } from 'node:zlib'

const END_OF_DIRECTORY = 0x06054b50
const DIRECTORY_ENTRY = 0x02014b50
const LOCAL_HEADER = 0x04034b50

/** Every file of the archive (directories left out), by its path inside the archive. */
export function zipEntries(archive: Buffer): Map<string, Buffer> {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (end < 0 || archive.readUInt32LE(end) !== END_OF_DIRECTORY) throw new Error('not a zip archive: no end of central directory')
  const count = archive.readUInt16LE(end + 10)
  let at = archive.readUInt32LE(end + 16)
  const files = new Map<string, Buffer>()
  for (let i = 0; i < count; i++) {
    if (archive.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new Error(`zip: no directory entry at ${at}`)
    const method = archive.readUInt16LE(at + 10)
    const compressedSize = archive.readUInt32LE(at + 20)
    const nameLength = archive.readUInt16LE(at + 28)
    const extraLength = archive.readUInt16LE(at + 30)
    const commentLength = archive.readUInt16LE(at + 32)
    const local = archive.readUInt32LE(at + 42)
    const name = archive.toString('utf8', at + 46, at + 46 + nameLength)
    at += 46 + nameLength + extraLength + commentLength
    if (name.endsWith('/')) continue
    if (archive.readUInt32LE(local) !== LOCAL_HEADER) throw new Error(`zip: no local header for ${name}`)
    const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28)
    const data = archive.subarray(start, start + compressedSize)
    if (method === 0) files.set(name, data)
    else if (method === 8) files.set(name, inflateRawSync(data))
    else throw new Error(`zip: ${name} is compressed with method ${method}`)
  }
  return files
}
