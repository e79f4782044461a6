/** Evaluation of the XPath subset parsed by ./xpathParse.ts, over the element tree. */
import type { El, Expr, Step, Value } from './xpathParse.js';

// --- Evaluation -----------------------------------------------------------------------------------------------------

function rootOf(el: El): El {
  let r = el;
  while (r.parent) r = r.parent;
  return r;
}

/** Elements before `el` in document order, ancestors excluded (order across differently named siblings is the reader's). */
function preceding(el: El): El[] {
  const all = descendants(rootOf(el));
  // indexOf on the cached order list: linear, and only the PaymentID / PaymentMeansCode rules use this axis.
  const ancestors = new Set<El>();
  for (let p = el.parent; p; p = p.parent) ancestors.add(p);
  const at = all.indexOf(el);
  return all.slice(0, Math.max(0, at)).filter((n) => !ancestors.has(n));
}

/** The synthetic document node above each root element, kept so its descendant list is computed once. */
const documentOf = new WeakMap<El, El>();

/** Descendants in document order, computed once per element (the tree does not change once built). */
const descendantCache = new WeakMap<El, El[]>();
function descendants(el: El): El[] {
  const cached = descendantCache.get(el);
  if (cached) return cached;
  const out: El[] = [];
  const walk = (n: El): void => {
    for (const c of n.children) {
      out.push(c);
      walk(c);
    }
  };
  walk(el);
  descendantCache.set(el, out);
  return out;
}

const nameMatches = (el: El, name: string): boolean => name === '*' || el.name === name;

/**
 * `X[not(preceding::X/. = .)]` — "the first X of its value" (UBL-SR-44/47: distinct payment ids and codes) — evaluated
 * literally compares each X with every X before it: quadratic (8,000 payment means took 32 s). It is answered instead
 * from one pass over the document in order, remembering the Xs seen per value; an X is first of its value when every
 * earlier X with its value is one of its ancestors (the preceding axis excludes ancestors), so at most its depth of
 * entries is looked at.
 */
const firstOfValueName = new WeakMap<Expr, string | null>();
function firstOfValuePredicate(p: Expr): string | null {
  let name = firstOfValueName.get(p);
  if (name !== undefined) return name;
  name = null;
  if (p.kind === 'not' && p.arg.kind === 'cmp' && p.arg.op === '=') {
    const { left, right } = p.arg;
    const isSelf = (s: Step): boolean => s.axis === 'self' && s.name === '*' && s.predicates.length === 0 && !s.fn;
    if (
      left.kind === 'path' && left.absolute === 'none' && left.steps.length === 2 && left.steps[0]!.axis === 'preceding' &&
      left.steps[0]!.predicates.length === 0 && !left.steps[0]!.fn && left.steps[0]!.name !== '*' && isSelf(left.steps[1]!) &&
      right.kind === 'path' && right.absolute === 'none' && right.steps.length === 1 && isSelf(right.steps[0]!)
    ) {
      name = left.steps[0]!.name;
    }
  }
  firstOfValueName.set(p, name);
  return name;
}

const firstOfValueCache = new WeakMap<El, Map<string, Set<El>>>();
function firstsOfTheirValue(root: El, name: string): Set<El> {
  let byName = firstOfValueCache.get(root);
  if (!byName) firstOfValueCache.set(root, (byName = new Map()));
  let firsts = byName.get(name);
  if (firsts) return firsts;
  firsts = new Set();
  const seen = new Map<string, El[]>();
  const isAncestor = (a: El, of: El): boolean => {
    for (let p = of.parent; p; p = p.parent) if (p === a) return true;
    return false;
  };
  for (const el of descendants(root)) {
    if (el.name !== name) continue;
    const earlier = seen.get(el.text);
    if (!earlier || earlier.every((e) => isAncestor(e, el))) firsts.add(el);
    if (!earlier) seen.set(el.text, [el]);
    else earlier.push(el);
  }
  byName.set(name, firsts);
  return firsts;
}

export function applyStep(nodes: El[], step: Step): El[] | string[] {
  if (step.fn) return nodes.map((n) => firstString(evaluate(step.fn!, n)));
  if (step.axis === 'attribute') {
    const out: string[] = [];
    for (const n of nodes) {
      if (step.name === '*') out.push(...Object.values(n.attrs));
      else if (step.name in n.attrs) out.push(n.attrs[step.name]!);
    }
    return out;
  }
  const out: El[] = [];
  const seen = new Set<El>();
  for (const n of nodes) {
    let candidates: El[];
    switch (step.axis) {
      case 'child':
        candidates = n.children;
        break;
      case 'descendant':
        candidates = descendants(n);
        break;
      case 'parent':
        candidates = n.parent ? [n.parent] : [];
        break;
      case 'self':
        candidates = [n];
        break;
      case 'ancestor': {
        candidates = [];
        for (let p = n.parent; p; p = p.parent) candidates.push(p);
        break;
      }
      case 'preceding':
        candidates = preceding(n);
        break;
    }
    let kept = candidates.filter((c) => nameMatches(c, step.name));
    for (const p of step.predicates) {
      const firstOf = firstOfValuePredicate(p);
      if (p.kind === 'lit' && typeof p.value === 'number') kept = kept.slice(p.value - 1, p.value);
      else if (firstOf !== null) kept = kept.filter((c) => (c.name === firstOf ? firstsOfTheirValue(rootOf(c), firstOf).has(c) : truthy(evaluate(p, c))));
      else kept = kept.filter((c) => truthy(evaluate(p, c)));
    }
    for (const c of kept) {
      if (seen.has(c)) continue;
      seen.add(c);
      out.push(c);
    }
  }
  return out;
}

function evalPath(e: Extract<Expr, { kind: 'path' }>, context: El): El[] | string[] {
  let nodes: El[] | string[];
  if (e.absolute === 'none') nodes = [context];
  else {
    // A synthetic document node above the root element, so `/rsm:CrossIndustryInvoice` selects the root.
    const root = rootOf(context);
    let doc = documentOf.get(root);
    if (!doc) {
      doc = { name: '#document', attrs: {}, text: '', children: [root], parent: null };
      documentOf.set(root, doc);
    }
    nodes = [doc];
    if (e.absolute === 'descendant') {
      const [first, ...rest] = e.steps;
      nodes = applyStep([doc], { ...first!, axis: first!.axis === 'child' ? 'descendant' : first!.axis });
      for (const s of rest) nodes = applyStep(nodes as El[], s);
      return nodes;
    }
  }
  for (const s of e.steps) {
    if (typeof nodes[0] === 'string') return [];
    nodes = applyStep(nodes as El[], s);
  }
  return nodes;
}

const stringOf = (item: El | string): string => (typeof item === 'string' ? item : item.text);

export function truthy(v: Value): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  if (typeof v === 'string') return v.length > 0;
  return v;
}

function compare(op: string, a: string | number, b: string | number): boolean {
  if (typeof a === 'number' || typeof b === 'number') {
    const x = Number(a);
    const y = Number(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return op === '!=' ? false : false;
    return op === '=' ? x === y : op === '!=' ? x !== y : op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y;
  }
  return op === '=' ? a === b : op === '!=' ? a !== b : op === '<' ? a < b : op === '>' ? a > b : op === '<=' ? a <= b : a >= b;
}

function atoms(v: Value): (string | number)[] {
  if (Array.isArray(v)) return (v as (El | string)[]).map(stringOf);
  if (typeof v === 'boolean') return [v ? 1 : 0];
  return [v];
}

export function evaluate(e: Expr, context: El): Value {
  switch (e.kind) {
    case 'or':
      return truthy(evaluate(e.left, context)) || truthy(evaluate(e.right, context));
    case 'and':
      return truthy(evaluate(e.left, context)) && truthy(evaluate(e.right, context));
    case 'not':
      return !truthy(evaluate(e.arg, context));
    case 'exists':
      return truthy(evaluate(e.arg, context));
    case 'count': {
      const v = evaluate(e.arg, context);
      return Array.isArray(v) ? v.length : 1;
    }
    case 'endsWithName':
      return context.name.endsWith(e.suffix);
    case 'lit':
      return e.value;
    case 'fn':
      return callFunction(e.name, e.args, context);
    case 'path':
      return evalPath(e, context);
    case 'union': {
      // A set for the duplicates: `nodes.includes` made `(cac:InvoiceLine|cac:CreditNoteLine)` quadratic in the lines.
      let nodes: El[] = [];
      const seen = new Set<El>();
      for (const part of e.parts) {
        const v = evaluate(part, context);
        if (Array.isArray(v)) {
          for (const n of v) {
            if (typeof n === 'string' || seen.has(n)) continue;
            seen.add(n);
            nodes.push(n);
          }
        }
      }
      if (e.position !== undefined) nodes = nodes.slice(e.position - 1, e.position);
      for (const s of e.steps) {
        const next = applyStep(nodes, s);
        if (next.length > 0 && typeof next[0] === 'string') return next;
        nodes = next as El[];
      }
      return nodes;
    }
    case 'arith': {
      const l = Number(atoms(evaluate(e.left, context))[0]);
      const r = Number(atoms(evaluate(e.right, context))[0]);
      return e.op === '-' ? l - r : l + r;
    }
    case 'cmp': {
      const l = evaluate(e.left, context);
      const r = evaluate(e.right, context);
      if (typeof l === 'boolean' || typeof r === 'boolean') {
        // A node's text compared with a boolean is cast to xs:boolean ("true"/"1", "false"/"0").
        const asBooleans = (v: Value): number[] => (Array.isArray(v) ? atoms(v).map((a) => (a === 'true' || a === '1' ? 1 : 0)) : [truthy(v) ? 1 : 0]);
        return asBooleans(l).some((a) => asBooleans(r).some((b) => compare(e.op, a, b)));
      }
      const la = atoms(l);
      const ra = atoms(r);
      return la.some((a) => ra.some((b) => compare(e.op, a, b)));
    }
  }
}

function firstString(v: Value): string {
  if (Array.isArray(v)) return v.length === 0 ? '' : stringOf(v[0] as El | string);
  return String(v);
}

function callFunction(name: string, args: Expr[], context: El): Value {
  const arg = (i: number): string => (args[i] ? firstString(evaluate(args[i]!, context)) : context.text);
  switch (name) {
    case 'normalize-space':
      return arg(0).trim().replace(/\s+/g, ' ');
    case 'string-length':
      return [...arg(0)].length;
    case 'substring-after': {
      const text = arg(0);
      const sep = arg(1);
      const at = text.indexOf(sep);
      return at < 0 ? '' : text.slice(at + sep.length);
    }
    case 'upper-case':
      return arg(0).toUpperCase();
    case 'local-name': {
      const v = args[0] ? evaluate(args[0], context) : [context];
      return Array.isArray(v) && v.length > 0 && typeof v[0] !== 'string' ? (v[0] as El).name : '';
    }
    case 'matches':
      return new RegExp(arg(1)).test(arg(0));
    case 'distinct-values': {
      const v = args[0] ? evaluate(args[0], context) : [];
      return [...new Set(Array.isArray(v) ? (v as (El | string)[]).map(stringOf) : [String(v)])];
    }
    default:
      return '';
  }
}
