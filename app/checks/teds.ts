/**
 * TEDS — Tree-Edit-Distance-based Similarity for HTML tables (Zhong et al., PubTabNet, ECCV 2020), following the
 * reference implementation (ibm-aur-nlp/PubTabNet src/metric.py):
 *   TEDS = 1 − TED(pred, true) / max(|pred|, |true|),   |t| = number of elements under the `<table>` element;
 * insert and delete cost 1; rename cost 1 when tags, colspan or rowspan differ, else for cells the normalised
 * Levenshtein distance between their content token lists (each character and each inline tag such as `<b>`/`</b>` is
 * one token), else 0. TEDS-structure ignores cell content (rename of two cells with equal spans costs 0).
 * Only the first `<table>` of each input is compared; an input without a table scores 0.
 *
 * One deliberate difference: `<th>` cells are cells here (content compared, spans counted), where the reference treats
 * only `<td>` as a cell (PubTabNet's HTML has no `<th>`); a `<td>`/`<th>` mismatch still costs a rename of 1.
 */
import { findAll, isElement, parseHtml, type HtmlElement, type HtmlNode } from '../tables/htmlTree.js';
import { distance } from 'fastest-levenshtein';
import { treeEditDistance } from './treeEditDistance.js';

interface TableTreeNode {
  tag: string;
  colspan: number | null;
  rowspan: number | null;
  /**
   * Cell content tokens encoded one UTF-16 unit per token (see `TokenCodes`), so the reference's Levenshtein over
   * token lists becomes fastest-levenshtein over strings; null for non-cell nodes.
   */
  content: string | null;
  children: TableTreeNode[];
}

/** Maps each distinct content token (a character or an inline tag such as `<b>`) to one code unit, shared by both trees. */
class TokenCodes {
  private readonly codes = new Map<string, string>();
  private next = 0xe000; // private-use area first, then beyond: any unit works as long as the mapping is one-to-one

  encode(tokens: string[]): string {
    let out = '';
    for (const token of tokens) {
      let code = this.codes.get(token);
      if (code === undefined) {
        code = String.fromCharCode(this.next++);
        if (this.next === 0xf900) this.next = 0x0100; // wrap into ordinary ranges for very varied content
        this.codes.set(token, code);
      }
      out += code;
    }
    return out;
  }
}

const isCellTag = (tag: string): boolean => tag === 'td' || tag === 'th';

function contentTokens(node: HtmlNode, out: string[]): string[] {
  if (!isElement(node)) {
    out.push(...Array.from(node));
    return out;
  }
  out.push(`<${node.tag}>`);
  for (const child of node.children) contentTokens(child, out);
  out.push(`</${node.tag}>`);
  return out;
}

function span(raw: string | undefined): number {
  const value = Number.parseInt(raw ?? '1', 10);
  return Number.isFinite(value) ? value : 1;
}

function toTree(element: HtmlElement, structureOnly: boolean, codes: TokenCodes): TableTreeNode {
  if (isCellTag(element.tag)) {
    const tokens: string[] = [];
    if (!structureOnly) for (const child of element.children) contentTokens(child, tokens);
    return { tag: element.tag, colspan: span(element.attrs.colspan), rowspan: span(element.attrs.rowspan), content: codes.encode(tokens), children: [] };
  }
  return {
    tag: element.tag,
    colspan: null,
    rowspan: null,
    content: null,
    children: element.children.filter(isElement).map((c) => toTree(c, structureOnly, codes)),
  };
}

function treeKey(node: TableTreeNode): string {
  return `${node.tag}|${node.colspan}|${node.rowspan}|${node.content ?? ''}(${node.children.map(treeKey).join(',')})`;
}

function countElements(element: HtmlElement): number {
  let count = 0;
  for (const child of element.children) if (isElement(child)) count += 1 + countElements(child);
  return count;
}

function renameCost(a: TableTreeNode, b: TableTreeNode): number {
  if (a.tag !== b.tag || a.colspan !== b.colspan || a.rowspan !== b.rowspan) return 1;
  if (a.content !== null && b.content !== null && (a.content.length > 0 || b.content.length > 0)) {
    if (a.content === b.content) return 0;
    return distance(a.content, b.content) / Math.max(a.content.length, b.content.length);
  }
  return 0;
}

/** TEDS of two parsed tables. */
function tedsOfTables(predicted: HtmlElement, truth: HtmlElement, structureOnly: boolean): number {
  const nodeCount = Math.max(countElements(predicted), countElements(truth));
  if (nodeCount === 0) return 1;
  const codes = new TokenCodes();
  const predictedTree = toTree(predicted, structureOnly, codes);
  const trueTree = toTree(truth, structureOnly, codes);
  // Equal trees have distance 0: skip the O(n²) computation (the common case when an analyst left a table alone).
  if (treeKey(predictedTree) === treeKey(trueTree)) return 1;
  const edits = treeEditDistance(predictedTree, trueTree, renameCost);
  return Math.max(0, 1 - edits / nodeCount);
}

/** The first table of each HTML string, or null when either has none (TEDS 0). */
function tablePair(predictedHtml: string, trueHtml: string): [HtmlElement, HtmlElement] | null {
  if (!predictedHtml || !trueHtml) return null;
  const predicted = findAll(parseHtml(predictedHtml), 'table')[0];
  const truth = findAll(parseHtml(trueHtml), 'table')[0];
  return predicted && truth ? [predicted, truth] : null;
}

/** The same table twice (an analyst left it alone, checked on every save): distance 0, no parsing needed. */
const sameTable = (predictedHtml: string, trueHtml: string): boolean =>
  predictedHtml === trueHtml && /^\s*<table[\s>]/i.test(predictedHtml);

/** TEDS of two HTML strings (documents or fragments); 1 = identical tables. */
export function teds(predictedHtml: string, trueHtml: string, options: { structureOnly?: boolean } = {}): number {
  if (sameTable(predictedHtml, trueHtml)) return 1;
  const pair = tablePair(predictedHtml, trueHtml);
  return pair ? tedsOfTables(pair[0], pair[1], options.structureOnly ?? false) : 0;
}

/** TEDS and TEDS-structure of one pair, each table parsed once (the page checks want both on every save). */
export function tedsAndStructure(predictedHtml: string, trueHtml: string): { teds: number; tedsStructure: number } {
  if (sameTable(predictedHtml, trueHtml)) return { teds: 1, tedsStructure: 1 };
  const pair = tablePair(predictedHtml, trueHtml);
  if (!pair) return { teds: 0, tedsStructure: 0 };
  return { teds: tedsOfTables(pair[0], pair[1], false), tedsStructure: tedsOfTables(pair[0], pair[1], true) };
}

export function tedsStructure(predictedHtml: string, trueHtml: string): number {
  return teds(predictedHtml, trueHtml, { structureOnly: true });
}
