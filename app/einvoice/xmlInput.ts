/**
 * Bytes → a parsed XML tree, refusing what an e-invoice never needs and an attacker would use:
 * - more than MAX_EINVOICE_BYTES (checked before any decoding, so a 50 MB file costs nothing);
 * - a DOCTYPE or ENTITY declaration anywhere (entity expansion — "billion laughs" — and external entities that would
 *   read files or URLs): EN 16931 e-invoices are schema-validated documents without DTDs, so refusing is lossless;
 * - text that is not well-formed XML (fast-xml-parser's validator names the line and column), including bytes that are
 *   not text in the declared encoding and characters XML 1.0 forbids, raw or as references (xmlCharacters.ts), which
 *   fast-xml-parser lets through.
 * Only the five predefined entities and numeric character references are decoded.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { xmlDecimalNumber } from '../numbers/index.js';
import { illegalXmlCharacter } from './xmlCharacters.js';

/** Largest e-invoice accepted. Real CII/UBL invoices are kilobytes; 10 MB leaves room for embedded attachments. */
export const MAX_EINVOICE_BYTES = 10 * 1024 * 1024;

export type EInvoiceErrorCode = 'too-large' | 'doctype' | 'malformed' | 'not-an-invoice';

export class EInvoiceError extends Error {
  constructor(
    readonly code: EInvoiceErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EInvoiceError';
  }
}

/** A parsed element: child elements by local name (namespace prefixes removed), attributes as `@_name`, text as `#text`. */
export type XmlNode = { [name: string]: XmlValue };
export type XmlValue = string | XmlNode | XmlValue[];

/** The encoding named in the XML declaration, or UTF-8/16 from a byte-order mark. */
function encodingOf(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = /^\uFEFF?\s*<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head.replace(/^\u00EF\u00BB\u00BF/, ''));
  return declared?.[1]?.toLowerCase() ?? 'utf-8';
}

/** The XML's text, decoded by its declared encoding (refusing bytes that are not text in it); BOM removed. */
export function decodeXmlText(bytes: Uint8Array): string {
  return decode(bytes);
}

function decode(bytes: Uint8Array): string {
  const encoding = encodingOf(bytes);
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    // fatal: bytes that are not text in the encoding are a well-formedness error (XML 1.0 §4.3.3), never U+FFFD.
    decoder = new TextDecoder(encoding, { fatal: true });
  } catch {
    throw new EInvoiceError('malformed', `the XML declares an unknown encoding (${encoding})`);
  }
  try {
    return decoder.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new EInvoiceError('malformed', `the XML is not well-formed: its bytes are not valid ${encoding} text`);
  }
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  // Keep every value as written: "00123" is an invoice number, not 123; amounts are parsed where they are read.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // Predefined entities only: a DOCTYPE never reaches the parser (refused below).
  processEntities: true,
  htmlEntities: false,
});

/** The XML's root element name (local) and its tree. Throws EInvoiceError with a message fit for the user. */
export function parseXmlBytes(bytes: Uint8Array): { rootName: string; root: XmlNode; namespaces: string[] } {
  if (bytes.byteLength > MAX_EINVOICE_BYTES) {
    throw new EInvoiceError('too-large', `the XML is ${(bytes.byteLength / 1024 / 1024).toFixed(1)} MB; e-invoices over ${MAX_EINVOICE_BYTES / 1024 / 1024} MB are refused`);
  }
  const text = decode(bytes);
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    throw new EInvoiceError('doctype', 'the XML declares a DOCTYPE or entities, which e-invoices never need (refused: entity expansion and external entities are attacks)');
  }
  const illegal = illegalXmlCharacter(text);
  if (illegal !== null) throw new EInvoiceError('malformed', `the XML is not well-formed: ${illegal}`);
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new EInvoiceError('malformed', `the XML is not well-formed: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
  }
  let document: XmlNode;
  try {
    document = parser.parse(text) as XmlNode;
  } catch (error) {
    // The validator passes some input the parser still rejects (a processing instruction it cannot close).
    throw new EInvoiceError('malformed', `the XML is not well-formed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const rootName = Object.keys(document).find((k) => !k.startsWith('?') && !k.startsWith('#'));
  const root = rootName ? document[rootName] : undefined;
  if (!rootName || !root || typeof root !== 'object' || Array.isArray(root)) throw new EInvoiceError('not-an-invoice', 'the XML has no root element with content');
  return { rootName, root, namespaces: rootNamespaces(text, rootName) };
}

/** The namespace URIs declared on the root's start tag (the parsed tree has prefixes removed). */
function rootNamespaces(text: string, rootName: string): string[] {
  const start = new RegExp(`<(?:[\\w.-]+:)?${rootName}[\\s>/][^>]*>`).exec(text)?.[0] ?? '';
  return [...start.matchAll(/xmlns(?::[\w.-]+)?\s*=\s*["']([^"']+)["']/g)].map((m) => m[1]!);
}

// --- Walking the tree ----------------------------------------------------------------------------------------------

/** All children named `name` (an element that occurs once is not an array in the parsed tree). */
export function children(node: XmlValue | undefined, name: string): XmlValue[] {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return [];
  const value = node[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The first element at a `/`-separated path of local names, or undefined. */
export function at(node: XmlValue | undefined, path: string): XmlValue | undefined {
  let current: XmlValue | undefined = node;
  for (const step of path.split('/')) {
    current = children(current, step)[0];
    if (current === undefined) return undefined;
  }
  return current;
}

/** Every element at a path (all matches at each step). */
export function all(node: XmlValue | undefined, path: string): XmlValue[] {
  let current: XmlValue[] = node === undefined ? [] : [node];
  for (const step of path.split('/')) current = current.flatMap((n) => children(n, step));
  return current;
}

/** An element's text (its `#text`, or itself when it has no attributes), trimmed; null when empty or absent. */
export function textOf(node: XmlValue | undefined): string | null {
  if (node === undefined) return null;
  if (typeof node === 'string') return node.trim() || null;
  if (Array.isArray(node)) return textOf(node[0]);
  const text = node['#text'];
  return typeof text === 'string' ? text.trim() || null : null;
}

export function attributeOf(node: XmlValue | undefined, name: string): string | null {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return null;
  const value = node[`@_${name}`];
  return typeof value === 'string' ? value : null;
}

/** A decimal as XML Schema writes it ("1630.00", "-8.79"); null for anything else (app/numbers: linear, capped). */
export function decimalOf(node: XmlValue | undefined): number | null {
  const text = textOf(node);
  return text === null ? null : xmlDecimalNumber(text);
}
