// The toolbar's grey icons (a tab with no agent), made from the coloured ones at build time so
// the two never drift apart. Reads and writes 8-bit RGBA, non-interlaced PNGs, as the icons are.
import { deflateSync, inflateSync } from 'node:zlib'
import { readFile, writeFile } from 'node:fs/promises'

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])

function chunks(png) {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file')
  const found = []
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at)
    found.push({ type: png.toString('latin1', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) })
    at += 12 + length
  }
  return found
}

const paeth = (a, b, c) => {
  const p = a + b - c
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)]
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}

/** The image's RGBA bytes, row by row, with the PNG row filters undone. */
function pixels(png) {
  const all = chunks(png)
  const header = all.find((c) => c.type === 'IHDR').data
  const [width, height, depth, colour, interlace] = [header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9], header[12]]
  if (depth !== 8 || colour !== 6 || interlace !== 0) throw new Error('only 8-bit RGBA, non-interlaced PNGs are supported')
  const raw = inflateSync(Buffer.concat(all.filter((c) => c.type === 'IDAT').map((c) => c.data)))
  const stride = width * 4
  const out = Buffer.alloc(stride * height)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x]
      const a = x >= 4 ? out[y * stride + x - 4] : 0
      const b = y > 0 ? out[(y - 1) * stride + x] : 0
      const c = x >= 4 && y > 0 ? out[(y - 1) * stride + x - 4] : 0
      const predicted = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter]
      if (predicted === undefined) throw new Error(`unknown PNG row filter ${filter}`)
      out[y * stride + x] = (value + predicted) & 0xff
    }
  }
  return { width, height, data: out }
}

function crc32(bytes) {
  let crc = ~0
  for (const byte of bytes) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1))
  }
  return ~crc >>> 0
}

function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const framed = Buffer.alloc(body.length + 8)
  framed.writeUInt32BE(data.length, 0)
  body.copy(framed, 4)
  framed.writeUInt32BE(crc32(body), body.length + 4)
  return framed
}

function encode({ width, height, data }) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 6, 0, 0, 0], 8)
  const stride = width * 4
  const rows = Buffer.alloc((stride + 1) * height)
  for (let y = 0; y < height; y++) data.copy(rows, y * (stride + 1) + 1, y * stride, (y + 1) * stride)
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))])
}

/** Writes a grey, lighter copy of the PNG at `from` to `to`: luminance, pulled toward white. */
export async function writeGreyIcon(from, to) {
  const image = pixels(await readFile(from))
  const { data } = image
  for (let i = 0; i < data.length; i += 4) {
    const luminance = 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2]
    data[i] = data[i + 1] = data[i + 2] = Math.round(96 + luminance * 0.5)
  }
  await writeFile(to, encode(image))
}
