/**
 * Well-formedness before any rule (issue 36): characters XML 1.0 forbids — raw or as character references — and bytes
 * that are not text in the declared encoding make the XML malformed, so an invoice carrying them is never "valid".
 */
import { describe, expect, it } from 'vitest';
import { validateEInvoiceXml } from '../en16931/index.js';
import { illegalXmlCharacter } from './xmlCharacters.js';
import { EInvoiceError, parseXmlBytes } from './xmlInput.js';

const ubl = (note: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:ID>42</cbc:ID><cbc:Note>${note}</cbc:Note></Invoice>`;

function refusal(xml: string | Uint8Array): EInvoiceError {
  try {
    validateEInvoiceXml(xml);
  } catch (error) {
    if (error instanceof EInvoiceError) return error;
    throw error;
  }
  throw new Error('the XML was read');
}

describe('XML 1.0 characters', () => {
  it.each([
    ['&#x0;', 'U+0000'],
    ['&#0;', 'U+0000'],
    ['&#x1F;', 'U+001F'],
    ['&#xFFFE;', 'U+FFFE'],
    ['&#xD800;', 'U+D800'],
    ['&#x110000;', 'no character'],
    ['\u0001', 'U+0001'],
    ['\u000B', 'U+000B'],
    ['\uFFFF', 'U+FFFF'],
  ])('%j makes the XML malformed, with the character and its place', (note, named) => {
    const error = refusal(ubl(`a${note}b`));
    expect(error.code).toBe('malformed');
    expect(error.message).toContain(named);
    expect(error.message).toMatch(/line 3, column \d+/);
  });

  it('allows tab, newline, carriage return, and references to legal characters (astral included)', () => {
    expect(illegalXmlCharacter(ubl('a\tb\r\nc &#x9; &#10; &#xE9; &#x1F600; \u{1F600} \uE000'))).toBeNull();
    expect(() => validateEInvoiceXml(ubl('&#xE9;t&#233;'))).not.toThrow();
  });

  it('a character reference with a million digits is refused in one pass, never parsed as a number', () => {
    // The capped pattern never matches it, so fast-xml-parser's own validator decides; it must not be read as valid.
    expect(illegalXmlCharacter(`&#${'9'.repeat(1_000_000)};`)).toBeNull();
    expect(illegalXmlCharacter(`&#x${'0'.repeat(7)}1;`)).toContain('U+0001');
  });

  it('bytes that are not UTF-8 text are malformed (never decoded to U+FFFD and read)', () => {
    const bytes = new TextEncoder().encode(ubl('Stra\u00DFe'));
    const at = bytes.indexOf(0xc3);
    const broken = new Uint8Array([...bytes.subarray(0, at), 0xdf, 0x20, ...bytes.subarray(at + 2)]);
    const error = refusal(broken);
    expect(error.code).toBe('malformed');
    expect(error.message).toContain('not valid utf-8 text');
  });

  it('a declared ISO-8859-1 file is read by its declaration', () => {
    const text = ubl('Stra\u00DFe').replace('UTF-8', 'ISO-8859-1');
    const latin1 = Uint8Array.from(text, (c) => c.charCodeAt(0));
    expect(() => parseXmlBytes(latin1)).not.toThrow();
  });
});
