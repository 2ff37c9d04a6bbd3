// How the canonical form writes a number of JSON text. `JSON.parse` rounds every number to the
// nearest double, which drops the digits a double cannot hold: `1800000000000000001` and
// `1800000000000000002` both become 1800000000000000000, so two different calls (ids past 2^53
// are common) would read as one. Here a number keeps its value:
//
// - an integer written without a fraction or exponent is written as the double is while it is a
//   safe integer, else as its own digits, as the serialiser writes a BigInt (so a BigInt and its
//   text compare alike);
// - any other number is written from its exact decimal value, laid out as JavaScript lays out a
//   number. Where that value is the double's own shortest one (`1.0`, `1e2`, `0.5`: every number
//   whose digits survive the double), that is the text the double is written as, byte for byte as
//   before; where the double rounds it (`0.30000000000000001`, `1e400`), its digits are kept.
import { NativeBigInt, isFiniteNumber, isSafeInteger, stringCharCodeAt, stringSlice, toNumber, toText } from './intrinsics.ts'

const ZERO = 0x30
const NINE = 0x39
const POINT = 0x2e
const MINUS = 0x2d

const isDigit = (c: number) => c >= ZERO && c <= NINE

/** How the serialiser writes the double `JSON.parse` makes of `token`. */
export function doubleText(token: string): string {
  const value = +token
  return isFiniteNumber(value) ? toText(value) : 'null'
}

/** The canonical text of `token`, a JSON number. */
export function numberText(token: string): string {
  if (!isIntegerLiteral(token)) return layout(decimalOf(token))
  const value = +token
  return isSafeInteger(value) ? toText(value) : token
}

function isIntegerLiteral(token: string): boolean {
  for (let i = token.length - 1; i >= 0; i--) if (!isDigit(stringCharCodeAt(token, i)) && stringCharCodeAt(token, i) !== MINUS) return false
  return true
}

/** A decimal number: `0.<digits> × 10^point`, its digits without leading or trailing zeros. */
interface Decimal {
  readonly negative: boolean
  readonly digits: string
  readonly point: bigint
}

/** The exact value of a JSON number. */
function decimalOf(token: string): Decimal {
  const negative = stringCharCodeAt(token, 0) === MINUS
  let i = negative ? 1 : 0
  const whole = i
  while (isDigit(stringCharCodeAt(token, i))) i++
  const wholeEnd = i
  let fraction = ''
  if (stringCharCodeAt(token, i) === POINT) {
    const start = ++i
    while (isDigit(stringCharCodeAt(token, i))) i++
    fraction = stringSlice(token, start, i)
  }
  // The exponent as a BigInt: `1e9007199254740993` keeps its last digit too.
  const exponent = i < token.length ? NativeBigInt(stringSlice(token, i + 1)) : 0n
  const all = stringSlice(token, whole, wholeEnd) + fraction
  let lead = 0
  while (stringCharCodeAt(all, lead) === ZERO) lead++
  let end = all.length
  while (end > lead && stringCharCodeAt(all, end - 1) === ZERO) end--
  return { negative, digits: stringSlice(all, lead, end), point: NativeBigInt(wholeEnd - whole - lead) + exponent }
}

/**
 * `value` laid out as `Number.prototype.toString` lays out a double (ECMA-262 Number::toString),
 * with all of its digits: positional from 1e-7 to below 1e21, else with an exponent.
 */
function layout({ negative, digits, point }: Decimal): string {
  // Zero has no sign: JSON writes -0 as 0.
  if (digits === '') return '0'
  const k = digits.length
  let text: string
  if (point <= 21n && point >= k) text = digits + zeros(toNumber(point) - k)
  else if (point <= 21n && point > 0n) text = `${stringSlice(digits, 0, toNumber(point))}.${stringSlice(digits, toNumber(point))}`
  else if (point <= 0n && point > -6n) text = `0.${zeros(-toNumber(point))}${digits}`
  else {
    const exponent = point - 1n
    const mantissa = k === 1 ? digits : `${stringSlice(digits, 0, 1)}.${stringSlice(digits, 1)}`
    text = `${mantissa}e${exponent < 0n ? '-' : '+'}${toText(exponent < 0n ? -exponent : exponent)}`
  }
  return negative ? `-${text}` : text
}

function zeros(count: number): string {
  let text = ''
  for (let i = 0; i < count; i++) text += '0'
  return text
}
