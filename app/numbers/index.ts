/**
 * Numbers read from untrusted text — e-invoice XML, page text, the analyst's entries — parsed in linear time with a
 * length cap: no regular expression with competing quantifiers ever sees the text (see docs/security.md).
 */
export { parseXmlDecimal, xmlDecimalNumber, MAX_DECIMAL_DIGITS } from './xmlDecimal.js';
export { parseAmount, currencyCodes, digitCountWithin, MAX_AMOUNT_TEXT_CHARS } from './printedAmount.js';
export { parseAmountIn, type NumberFormat } from './amountInFormat.js';
