/**
 * XML 1.0 §2.2 `Char` and §4.1 WFC "Legal Character": a document may contain only
 * #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF], written raw or as a character reference
 * (`&#x0;`, `&#1;`). Anything else makes the document not well-formed — an XML processor (and so KoSIT's validator
 * and the CEN's XSLT run on one) refuses it before any rule runs. fast-xml-parser does not check this, so it is
 * checked here, in one linear pass over the decoded text.
 */

/** A raw character outside `Char`: C0 controls other than tab/LF/CR, U+FFFE/U+FFFF, and unpaired surrogates. */
const ILLEGAL_RAW = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** A character reference; the digits are capped so a million-digit reference is one bounded match, not a number. */
const CHARACTER_REFERENCE = /&#(x[0-9A-Fa-f]{1,8}|[0-9]{1,10});/g;

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** 1-based line and column of an offset (only computed for the error message). */
function lineColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}

function hex(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why the text breaks the XML 1.0 character rules, or null when every character (raw or referenced) is legal. */
export function illegalXmlCharacter(text: string): string | null {
  const raw = ILLEGAL_RAW.exec(text);
  if (raw) return `it contains the character ${hex(raw[0].charCodeAt(0))}, which XML 1.0 does not allow (${lineColumn(text, raw.index)})`;
  for (const match of text.matchAll(CHARACTER_REFERENCE)) {
    const body = match[1]!;
    const code = body.startsWith('x') ? Number.parseInt(body.slice(1), 16) : Number.parseInt(body, 10);
    if (!isXmlChar(code)) return `its character reference ${match[0]} names ${code > 0x10ffff ? 'no character' : hex(code)}, which XML 1.0 does not allow (${lineColumn(text, match.index)})`;
  }
  return null;
}
