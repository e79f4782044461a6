/** Parsed XML (../../einvoice/xmlInput.ts) → Terms: text as written (trimmed) plus attributes, absent kept apart from empty. */
import { all, children, type XmlNode, type XmlValue } from '../../einvoice/xmlInput.js';
import type { Opt, Term } from '../model/semanticInvoice.js';

export type { XmlNode, XmlValue };

const ATTRIBUTE = '@_';

export function termOf(node: XmlValue): Term {
  if (typeof node === 'string') return { text: node.trim(), attrs: {} };
  if (Array.isArray(node)) return termOf(node[0] ?? '');
  const attrs: Record<string, string> = {};
  let text = '';
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith(ATTRIBUTE)) {
      if (typeof value === 'string') attrs[key.slice(ATTRIBUTE.length)] = value;
    } else if (key === '#text') text = String(value).trim();
    else text += stringValue(value);
  }
  return { text, attrs };
}

/** XPath string value of an element with element children: the concatenated descendant text. */
function stringValue(value: XmlValue): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(stringValue).join('');
  return Object.entries(value)
    .filter(([key]) => !key.startsWith(ATTRIBUTE))
    .map(([, v]) => stringValue(v))
    .join('');
}

/** The elements at a path, as nodes (a text-only element becomes a node with `#text`). */
export function nodes(node: XmlValue | undefined, path: string): XmlNode[] {
  return all(node, path).map((n) => (typeof n === 'string' ? { '#text': n } : Array.isArray(n) ? {} : n));
}

export function terms(node: XmlValue | undefined, path: string): Term[] {
  return all(node, path).map(termOf);
}

/** The first element at a path, or undefined when absent. */
export function term(node: XmlValue | undefined, path: string): Opt {
  const found = all(node, path);
  return found.length ? termOf(found[0]!) : undefined;
}

export function has(node: XmlValue | undefined, path: string): boolean {
  return all(node, path).length > 0;
}

export { children };
