/**
 * The syntax binding rules (UBL-CR/SR/DT, CII-SR/DT): each is a test on the XML itself — an element EN 16931 does not
 * use ("shall not include"), one that may occur once, an attribute a data type does not allow. They are evaluated on
 * the element tree as the compiled schematron does: for each element, the first template of the pattern (highest
 * priority) whose match pattern it satisfies runs its asserts. Templates and tests come from the XSLT
 * (syntaxTemplates.ts, generated); a test outside the XPath subset of ./xpathSubset.ts is not evaluated and its rule
 * is listed in `UNSUPPORTED_SYNTAX_RULES` (docs/en16931.md).
 */
import type { XmlNode, XmlValue } from '../../einvoice/xmlInput.js';
import type { RuleFailure, RuleFlag } from '../model/report.js';
import type { SyntaxTemplate } from './syntaxTemplate.js';
import { CII_SYNTAX_TEMPLATES, UBL_SYNTAX_TEMPLATES } from './syntaxTemplates.js';
import { evaluate, parseXPath, truthy, type El, type Expr } from './xpathSubset.js';


interface CompiledTemplate {
  patterns: Extract<Expr, { kind: 'path' }>[];
  asserts: { id: string; flag: RuleFlag; test: Expr; message: string }[];
}

/** Splits a match pattern at its top-level `|`. */
function alternatives(match: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < match.length; i++) {
    const c = match[i];
    if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === '|' && depth === 0) {
      parts.push(match.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(match.slice(start));
  return parts.map((p) => p.trim());
}

function compile(templates: readonly SyntaxTemplate[]): { compiled: CompiledTemplate[]; unsupported: string[] } {
  const unsupported: string[] = [];
  const compiled: CompiledTemplate[] = [];
  for (const t of [...templates].sort((a, b) => b.priority - a.priority)) {
    const patterns = alternatives(t.match).map(parseXPath);
    const patternsOk = patterns.every((p): p is Extract<Expr, { kind: 'path' }> => p !== null && p.kind === 'path');
    const asserts: CompiledTemplate['asserts'] = [];
    for (const a of t.asserts) {
      const test = parseXPath(a.test);
      if (!patternsOk || test === null) unsupported.push(a.id);
      else asserts.push({ id: a.id, flag: a.flag === 'warning' ? 'warning' : 'fatal', test, message: a.message });
    }
    // A template whose pattern is unsupported still shadows lower ones in the XSLT; without its pattern we cannot
    // know which elements it takes, so it is dropped (its rules are listed as unsupported).
    if (patternsOk) compiled.push({ patterns: patterns as Extract<Expr, { kind: 'path' }>[], asserts });
  }
  return { compiled, unsupported };
}

const UBL = compile(UBL_SYNTAX_TEMPLATES);
const CII = compile(CII_SYNTAX_TEMPLATES);

/** Syntax rules whose test or context is outside the evaluated XPath subset: not checked. */
export const UNSUPPORTED_SYNTAX_RULES = { ubl: UBL.unsupported, cii: CII.unsupported };
export const SYNTAX_RULE_COUNTS = {
  ubl: UBL_SYNTAX_TEMPLATES.reduce((n, t) => n + t.asserts.length, 0),
  cii: CII_SYNTAX_TEMPLATES.reduce((n, t) => n + t.asserts.length, 0),
};

/** Does `el` match the location path pattern (steps matched right to left against the element and its ancestors)? */
function matches(pattern: Extract<Expr, { kind: 'path' }>, el: El): boolean {
  const steps = pattern.steps;
  const stepMatches = (i: number, node: El): boolean => {
    const s = steps[i]!;
    if (s.axis === 'attribute' || s.axis === 'parent' || s.axis === 'ancestor') return false;
    if (s.name !== '*' && node.name !== s.name) return false;
    return s.predicates.every((p) => truthy(evaluate(p, node)));
  };
  const from = (i: number, node: El): boolean => {
    if (!stepMatches(i, node)) return false;
    const separator = steps[i]!.axis; // how this step hangs from the previous one
    if (i === 0) {
      if (pattern.absolute === 'root') return node.parent === null;
      return true;
    }
    if (separator === 'descendant') {
      for (let p = node.parent; p; p = p.parent) if (from(i - 1, p)) return true;
      return false;
    }
    return node.parent !== null && from(i - 1, node.parent);
  };
  return from(steps.length - 1, el);
}

/** The parsed XML (local names) as an element tree with parent links. */
export function elementTree(name: string, node: XmlValue, parent: El | null = null): El {
  const el: El = { name, attrs: {}, text: '', children: [], parent };
  if (typeof node === 'string') {
    el.text = node;
    return el;
  }
  if (Array.isArray(node)) return el;
  for (const [key, value] of Object.entries(node as XmlNode)) {
    if (key.startsWith('@_')) {
      if (typeof value === 'string') el.attrs[key.slice(2)] = value;
    } else if (key === '#text') el.text = String(value);
    else for (const v of Array.isArray(value) ? value : [value]) el.children.push(elementTree(key, v, el));
  }
  if (el.children.length > 0 && el.text === '') el.text = el.children.map((c) => c.text).join('');
  return el;
}

/** The syntax binding rules that fail on the document (each rule once, in template order). */
export function checkSyntaxRules(syntax: 'ubl' | 'cii', root: El): RuleFailure[] {
  const { compiled } = syntax === 'ubl' ? UBL : CII;
  const failed = new Map<string, RuleFailure>();
  const visit = (el: El): void => {
    const template = compiled.find((t) => t.patterns.some((p) => matches(p, el)));
    if (template) {
      for (const a of template.asserts) {
        if (failed.has(a.id)) continue;
        if (!truthy(evaluate(a.test, el))) failed.set(a.id, { id: a.id, flag: a.flag, message: a.message, bt: [] });
      }
    }
    for (const c of el.children) visit(c);
  };
  visit(root);
  return [...failed.values()];
}
