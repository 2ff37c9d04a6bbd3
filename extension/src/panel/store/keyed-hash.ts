// HMAC-SHA-256, computed synchronously (WebCrypto's is asynchronous, and a session file hashes
// every argument, result and fault text it holds). A sanitized session file replaces those texts
// by their length and this hash under a key made for that file alone and never written down: the
// same text gets the same hash within the file, so repeats still show (and replay), but no one
// holding the file can test a guess (a short password, a one-time code) against it.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
const BLOCK = 64
const w = new Uint32Array(64)

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n))

/** Runs the compression function over one 64-byte block of `bytes` at `at`. */
function compress(state: Uint32Array, bytes: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++) w[i] = (bytes[at + 4 * i]! << 24) | (bytes[at + 4 * i + 1]! << 16) | (bytes[at + 4 * i + 2]! << 8) | bytes[at + 4 * i + 3]!
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!
    const b = w[i - 2]!
    w[i] = (w[i - 16]! + (rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3)) + w[i - 7]! + (rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10))) | 0
  }
  let a = state[0]!
  let b = state[1]!
  let c = state[2]!
  let d = state[3]!
  let e = state[4]!
  let f = state[5]!
  let g = state[6]!
  let h = state[7]!
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0
    h = g
    g = f
    f = e
    e = (d + t1) | 0
    d = c
    c = b
    b = a
    a = (t1 + t2) | 0
  }
  const sums = [a, b, c, d, e, f, g, h]
  for (let i = 0; i < 8; i++) state[i] = state[i]! + sums[i]!
}

/** The digest of `prefix` blocks already run into `from`, followed by `message`. */
function finish(from: Uint32Array, prefixBytes: number, message: Uint8Array): Uint8Array {
  const state = new Uint32Array(from)
  const whole = message.length - (message.length % BLOCK)
  for (let at = 0; at < whole; at += BLOCK) compress(state, message, at)
  const tail = new Uint8Array(message.length - whole < 56 ? BLOCK : 2 * BLOCK)
  tail.set(message.subarray(whole))
  tail[message.length - whole] = 0x80
  const bits = (prefixBytes + message.length) * 8
  const view = new DataView(tail.buffer)
  view.setUint32(tail.length - 8, Math.floor(bits / 0x1_0000_0000))
  view.setUint32(tail.length - 4, bits >>> 0)
  for (let at = 0; at < tail.length; at += BLOCK) compress(state, tail, at)
  const out = new Uint8Array(32)
  const outView = new DataView(out.buffer)
  for (let i = 0; i < 8; i++) outView.setUint32(4 * i, state[i]!)
  return out
}

export function sha256(message: Uint8Array): Uint8Array {
  return finish(new Uint32Array(INITIAL), 0, message)
}

/** HMAC-SHA-256 under `key`, as a function of the message (the key's two padded blocks are run once). */
export function hmacSha256(key: Uint8Array): (message: Uint8Array) => Uint8Array {
  const block = new Uint8Array(BLOCK)
  block.set(key.length > BLOCK ? sha256(key) : key)
  const padded = (pad: number) => {
    const state = new Uint32Array(INITIAL)
    compress(
      state,
      block.map((byte) => byte ^ pad),
      0,
    )
    return state
  }
  const inner = padded(0x36)
  const outer = padded(0x5c)
  return (message) => finish(outer, BLOCK, finish(inner, BLOCK, message))
}
