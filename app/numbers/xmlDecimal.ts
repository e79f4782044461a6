/**
 * xs:decimal as EN 16931 XML carries it (CII `udt:AmountType`, UBL `cbc:Amount`): an optional sign, digits and an
 * optional fraction — `(\+|-)?([0-9]+(\.[0-9]*)?|\.[0-9]+)` in XML Schema's grammar — with surrounding whitespace
 * allowed (the schema's whitespace facet is `collapse`).
 *
 * Checked by one left-to-right scan, never a regular expression: the first reader used
 * `^[-+]?(?:\d+\.?\d*|\.\d+)$`, whose two digit runs split a long run of digits in quadratically many ways before a
 * trailing letter fails it (a 138 KB CII file took 51 s). The scan costs one step per character whatever the input.
 */

/**
 * Most digits a decimal may carry (leading zeros of the integer part not counted). Real amounts have at most 19
 * integer and a few fraction digits; 40 leaves room for any legitimate value while bounding what a hostile file can
 * make downstream arithmetic (big.js) work on, and keeps every accepted value finite as a JavaScript number.
 */
export const MAX_DECIMAL_DIGITS = 40;

const ZERO = 48;
const NINE = 57;

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

/** XML whitespace: space, tab, carriage return, line feed. */
function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

/**
 * The canonical form of an xs:decimal, or null when the text is not one or has more than MAX_DECIMAL_DIGITS digits.
 *
 * Canonical form (what big.js and the EN 16931 rules receive):
 * - no leading `+`; a `-` kept except on a value that is zero (`-0.00` → `0.00`);
 * - leading zeros of the integer part removed, one `0` kept before the point (`007.5` → `7.5`, `.5` → `0.5`);
 * - the fraction kept exactly as written, trailing zeros included: its length is the number of decimals that
 *   EN 16931's BR-DEC rules count (`1630.00` stays `1630.00`); a point with no fraction is dropped (`5.` → `5`).
 */
export function parseXmlDecimal(text: string): string | null {
  let start = 0;
  let end = text.length;
  while (start < end && isXmlSpace(text.charCodeAt(start))) start++;
  while (end > start && isXmlSpace(text.charCodeAt(end - 1))) end--;
  if (start === end) return null;

  let i = start;
  let negative = false;
  const sign = text.charCodeAt(i);
  if (sign === 0x2d /* - */ || sign === 0x2b /* + */) {
    negative = sign === 0x2d;
    i++;
  }
  // Integer part: skip leading zeros without counting them, then take the significant digits.
  let sawIntegerDigit = false;
  while (i < end && text.charCodeAt(i) === ZERO) {
    sawIntegerDigit = true;
    i++;
  }
  const integerStart = i;
  while (i < end && isDigit(text.charCodeAt(i))) i++;
  const integerEnd = i;
  if (integerEnd > integerStart) sawIntegerDigit = true;

  let fractionStart = i;
  let fractionEnd = i;
  if (i < end && text.charCodeAt(i) === 0x2e /* . */) {
    i++;
    fractionStart = i;
    while (i < end && isDigit(text.charCodeAt(i))) i++;
    fractionEnd = i;
  }
  if (i !== end) return null; // a character that is not part of a decimal
  if (!sawIntegerDigit && fractionEnd === fractionStart) return null; // "", "+", ".", "-."
  const digitCount = integerEnd - integerStart + (fractionEnd - fractionStart);
  if (digitCount > MAX_DECIMAL_DIGITS) return null;

  const integer = integerEnd > integerStart ? text.slice(integerStart, integerEnd) : '0';
  const fraction = text.slice(fractionStart, fractionEnd);
  const isZero = integerEnd === integerStart && !/[1-9]/.test(fraction);
  const body = fraction === '' ? integer : `${integer}.${fraction}`;
  return negative && !isZero ? `-${body}` : body;
}

/** An xs:decimal as a JavaScript number (finite by the digit cap), or null; for display and tolerant comparisons. */
export function xmlDecimalNumber(text: string): number | null {
  const canonical = parseXmlDecimal(text);
  return canonical === null ? null : Number(canonical);
}
