/**
 * Tells the type of a file from its first bytes, never from its extension: a renamed file is read for what it is.
 */

import { looksLikeEInvoiceXml } from '../../app/einvoice/index.js';

/** `application/xml`: a standalone e-invoice (CII or UBL), imported as a generated readable page (einvoicePage.ts). */
export type SupportedMediaType = 'application/pdf' | 'image/png' | 'image/jpeg' | 'image/tiff' | 'application/xml';

/** How many leading bytes sniffing needs (PDF allows junk before `%PDF-` within the first 1024 bytes). */
export const SNIFF_BYTES = 1024;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(head: Uint8Array, bytes: readonly number[]): boolean {
  return bytes.every((b, i) => head[i] === b);
}

/** Returns the media type, or null when the bytes are none of the supported kinds. */
export function sniffMediaType(head: Uint8Array): SupportedMediaType | null {
  if (startsWith(head, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  // Little-endian "II*\0" and big-endian "MM\0*"; 43 (0x2b) instead of 42 is BigTIFF.
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (startsWith(head, [0x49, 0x49, 0x2b, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2b])) return 'image/tiff';
  if (indexOfAscii(head.subarray(0, SNIFF_BYTES), '%PDF-') >= 0) return 'application/pdf';
  // XML: an e-invoice root, or any XML declaration (the e-invoice reader then says what is wrong with it).
  if (looksLikeEInvoiceXml(head) || /^(?:\uFEFF)?\s*<\?xml\s/.test(new TextDecoder('utf-8').decode(head.subarray(0, 64)))) return 'application/xml';
  return null;
}

function indexOfAscii(haystack: Uint8Array, needle: string): number {
  const codes = Array.from(needle, (c) => c.charCodeAt(0));
  outer: for (let i = 0; i + codes.length <= haystack.length; i++) {
    for (let j = 0; j < codes.length; j++) if (haystack[i + j] !== codes[j]) continue outer;
    return i;
  }
  return -1;
}
