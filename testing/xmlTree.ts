/**
 * A mutable, order-preserving XML tree for the EN 16931 mutation generator: fast-xml-parser's `preserveOrder` form,
 * which round-trips an e-invoice to a document the official validator judges identically (checked on every complete
 * XML of ../shared/testdata when the differential tests start). Names stay as written (`cbc:ID`, `ram:TypeCode`);
 * mutations match on local names, so any prefix works.
 */
import { XMLBuilder, XMLParser } from 'fast-xml-parser';

/** One node: `{ [tag]: children, ':@'?: attributes }`, `{ '#text': string }` or `{ '#comment': [...] }`. */
export type XmlNode = Record<string, unknown>;

const ATTRIBUTES = ':@';
const TEXT = '#text';
const COMMENT = '#comment';
const ATTRIBUTE_PREFIX = '@_';

const options = {
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  commentPropName: COMMENT,
  processEntities: false,
  suppressEmptyNode: false,
} as const;

export function parseXmlTree(xml: string): XmlNode[] {
  return new XMLParser(options).parse(xml) as XmlNode[];
}

export function buildXml(tree: XmlNode[]): string {
  return new XMLBuilder(options).build(tree) as string;
}

/** The element's qualified name, or null for text, comments and the declaration. */
export function tagOf(node: XmlNode): string | null {
  for (const key of Object.keys(node)) {
    if (key === ATTRIBUTES || key === TEXT || key === COMMENT || key.startsWith('?')) continue;
    return key;
  }
  return null;
}

export function localName(tag: string): string {
  const colon = tag.indexOf(':');
  return colon < 0 ? tag : tag.slice(colon + 1);
}

export function childrenOf(node: XmlNode): XmlNode[] {
  const tag = tagOf(node);
  return tag ? (node[tag] as XmlNode[]) : [];
}

export function renameElement(node: XmlNode, tag: string): void {
  const old = tagOf(node);
  if (!old || old === tag) return;
  const children = node[old];
  delete node[old];
  node[tag] = children;
}

export function elementChildren(node: XmlNode): XmlNode[] {
  return childrenOf(node).filter((child) => tagOf(child) !== null);
}

/** The element's text content (its direct text children). */
export function textOf(node: XmlNode): string {
  return childrenOf(node)
    .filter((child) => TEXT in child)
    .map((child) => String(child[TEXT]))
    .join('');
}

/** Replaces the element's content by one text node (escaped for XML). */
export function setText(node: XmlNode, text: string): void {
  const tag = tagOf(node);
  if (!tag) return;
  node[tag] = text === '' ? [] : [{ [TEXT]: escapeXml(text) }];
}

export function attributeOf(node: XmlNode, name: string): string | undefined {
  const attributes = node[ATTRIBUTES] as Record<string, string> | undefined;
  return attributes?.[ATTRIBUTE_PREFIX + name];
}

export function attributeNames(node: XmlNode): string[] {
  const attributes = node[ATTRIBUTES] as Record<string, string> | undefined;
  return attributes ? Object.keys(attributes).map((key) => key.slice(ATTRIBUTE_PREFIX.length)) : [];
}

export function setAttribute(node: XmlNode, name: string, value: string): void {
  const attributes = (node[ATTRIBUTES] ??= {}) as Record<string, string>;
  attributes[ATTRIBUTE_PREFIX + name] = escapeXml(value);
}

export interface Located {
  node: XmlNode;
  /** The array holding the node, and its index there (for removal and duplication). */
  siblings: XmlNode[];
  index: number;
  parent: XmlNode | null;
  depth: number;
}

/** Every element in document order, with where it sits. */
export function elements(tree: XmlNode[]): Located[] {
  const found: Located[] = [];
  const visit = (siblings: XmlNode[], parent: XmlNode | null, depth: number): void => {
    siblings.forEach((node, index) => {
      if (tagOf(node) === null) return;
      found.push({ node, siblings, index, parent, depth });
      visit(childrenOf(node), node, depth + 1);
    });
  };
  visit(tree, null, 0);
  return found;
}

export function rootElement(tree: XmlNode[]): XmlNode {
  const root = tree.find((node) => tagOf(node) !== null);
  if (!root) throw new Error('XML without a root element');
  return root;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
