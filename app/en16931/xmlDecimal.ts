/**
 * Stand-in for `parseXmlDecimal` of app/numbers (the hardening issue's linear-time amount parser), with its exact
 * signature, until that module lands on this branch; then this file re-exports it and the copy goes.
 * xs:decimal lexical space: optional sign, digits with an optional point, surrounding whitespace collapsed. Returns
 * the canonical text (sign, digits, point) or null. One anchored regex without nested quantifiers: linear time,
 * and any length (a 400-digit amount stays exact — never a float).
 */
const XS_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

export function parseXmlDecimal(text: string): string | null {
  const s = text.trim();
  if (!XS_DECIMAL.test(s)) return null;
  const unsigned = s.replace(/^[+-]/, '');
  const sign = s.startsWith('-') ? '-' : '';
  const withInteger = unsigned.startsWith('.') ? `0${unsigned}` : unsigned;
  return sign + (withInteger.endsWith('.') ? withInteger.slice(0, -1) : withInteger);
}
