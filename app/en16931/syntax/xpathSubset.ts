/**
 * The small part of XPath the syntax binding rules are written in: location paths of element names (prefixes ignored
 * — the XML reader drops them), `@attribute`, `..`, `.`, `*`, `//`, predicates; `not()`, `count()`, `exists()`,
 * `true()`/`false()`, `and`/`or`, general comparisons with string and number literals, `ends-with(name(), '…')`,
 * `self::`, `ancestor::`. An expression outside this subset does not parse (`parseXPath` returns null) and its rule is
 * left out — never guessed. Evaluated over `El`, a light element tree with parent links built from the parsed XML.
 */

export interface El {
  name: string;
  attrs: Record<string, string>;
  text: string;
  children: El[];
  parent: El | null;
}

type Value = El[] | string[] | number | boolean | string;

export type Expr =
  | { kind: 'or' | 'and'; left: Expr; right: Expr }
  | { kind: 'cmp'; op: string; left: Expr; right: Expr }
  | { kind: 'not' | 'exists' | 'count'; arg: Expr }
  | { kind: 'endsWithName'; suffix: string }
  | { kind: 'fn'; name: string; args: Expr[] }
  | { kind: 'lit'; value: string | number | boolean }
  | { kind: 'path'; absolute: 'none' | 'root' | 'descendant'; steps: Step[] }
  | { kind: 'union'; parts: Expr[]; steps: Step[] }
  | { kind: 'arith'; op: '-' | '+'; left: Expr; right: Expr };

export interface Step {
  axis: 'child' | 'descendant' | 'attribute' | 'parent' | 'self' | 'ancestor';
  name: string; // local name or '*'
  predicates: Expr[];
}

// --- Tokenizer ------------------------------------------------------------------------------------------------------

const TOKEN = /\s*(\/\/|\/|\(|\)|\[|\]|\.\.|\.|@|,|!=|<=|>=|=|<|>|\||-|\+|'[^']*'|"[^"]*"|\d+(?:\.\d+)?|[A-Za-z_][\w.-]*(?::(?:[A-Za-z_][\w.-]*|\*))?(?:::)?|\*)/y;

function tokenize(text: string): string[] | null {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (!m || m[0].length === 0) return null;
    tokens.push(m[1]!);
    at = TOKEN.lastIndex;
  }
  return tokens;
}

// --- Parser ---------------------------------------------------------------------------------------------------------

class Parser {
  private i = 0;
  constructor(private readonly t: string[]) {}
  private peek(k = 0): string | undefined {
    return this.t[this.i + k];
  }
  private take(expected?: string): string {
    const tok = this.t[this.i++];
    if (tok === undefined || (expected !== undefined && tok !== expected)) throw new Error('parse');
    return tok;
  }
  done(): boolean {
    return this.i === this.t.length;
  }
  expr(): Expr {
    let left = this.and();
    while (this.peek() === 'or') {
      this.take();
      left = { kind: 'or', left, right: this.and() };
    }
    return left;
  }
  private and(): Expr {
    let left = this.cmp();
    while (this.peek() === 'and') {
      this.take();
      left = { kind: 'and', left, right: this.cmp() };
    }
    return left;
  }
  private cmp(): Expr {
    const left = this.union();
    const op = this.peek();
    if (op && ['=', '!=', '<=', '>=', '<', '>'].includes(op)) {
      this.take();
      return { kind: 'cmp', op, left, right: this.union() };
    }
    return left;
  }
  private union(): Expr {
    const first = this.arith();
    if (this.peek() !== '|') return first;
    const parts = [first];
    while (this.peek() === '|') {
      this.take();
      parts.push(this.arith());
    }
    return { kind: 'union', parts, steps: [] };
  }
  private arith(): Expr {
    let left = this.primary();
    while (this.peek() === '-' || this.peek() === '+') {
      const op = this.take() as '-' | '+';
      left = { kind: 'arith', op, left, right: this.primary() };
    }
    return left;
  }
  private primary(): Expr {
    const tok = this.peek();
    if (tok === undefined) throw new Error('parse');
    if (tok === '(') {
      this.take();
      const e = this.expr();
      this.take(')');
      if (this.peek() !== '/' && this.peek() !== '//') return e;
      // `(a | b)/c`: further steps from each node of the parenthesized node set.
      const steps: Step[] = [];
      while (this.peek() === '/' || this.peek() === '//') {
        const sep = this.take();
        steps.push(this.step(sep === '//' ? 'descendant' : 'child'));
      }
      return { kind: 'union', parts: e.kind === 'union' ? e.parts : [e], steps };
    }
    if (tok.startsWith("'") || tok.startsWith('"')) return { kind: 'lit', value: this.take().slice(1, -1) };
    if (/^\d/.test(tok)) return { kind: 'lit', value: Number(this.take()) };
    if (this.peek(1) === '(' && /^[a-z-]+$/.test(tok)) return this.call();
    return this.path();
  }
  private call(): Expr {
    const name = this.take();
    this.take('(');
    if (name === 'true' || name === 'false') {
      this.take(')');
      return { kind: 'lit', value: name === 'true' };
    }
    if (name === 'not' || name === 'exists' || name === 'count') {
      const arg = this.expr();
      this.take(')');
      return { kind: name, arg };
    }
    if (name === 'ends-with' && this.peek() === 'name' && this.peek(1) === '(') {
      this.take();
      this.take('(');
      this.take(')');
      this.take(',');
      const lit = this.take();
      this.take(')');
      return { kind: 'endsWithName', suffix: lit.slice(1, -1) };
    }
    if (STRING_FUNCTIONS.has(name)) {
      const args: Expr[] = [];
      if (this.peek() !== ')') {
        args.push(this.expr());
        while (this.peek() === ',') {
          this.take();
          args.push(this.expr());
        }
      }
      this.take(')');
      return { kind: 'fn', name, args };
    }
    throw new Error(`unsupported function ${name}`);
  }
  private path(): Expr {
    let absolute: 'none' | 'root' | 'descendant' = 'none';
    const steps: Step[] = [];
    if (this.peek() === '/' || this.peek() === '//') absolute = this.take() === '/' ? 'root' : 'descendant';
    steps.push(this.step('child'));
    while (this.peek() === '/' || this.peek() === '//') {
      const sep = this.take();
      steps.push(this.step(sep === '//' ? 'descendant' : 'child'));
    }
    return { kind: 'path', absolute, steps };
  }
  private step(axis: Step['axis']): Step {
    const tok = this.take();
    let step: Step;
    if (tok === '..') step = { axis: 'parent', name: '*', predicates: [] };
    else if (tok === '.') step = { axis: 'self', name: '*', predicates: [] };
    else if (tok === '@') step = { axis: 'attribute', name: localName(this.take()), predicates: [] };
    else if (tok.endsWith('::')) {
      const named = tok.slice(0, -2);
      if (named !== 'self' && named !== 'ancestor') throw new Error('axis');
      step = { axis: named, name: localName(this.take()), predicates: [] };
    } else if (tok === '*' || /^[A-Za-z_]/.test(tok)) step = { axis, name: localName(tok), predicates: [] };
    else throw new Error('step');
    if (axis === 'descendant' && step.axis === 'child') step.axis = 'descendant';
    while (this.peek() === '[') {
      this.take();
      step.predicates.push(this.expr());
      this.take(']');
    }
    return step;
  }
}

/** String functions the syntax rules use, evaluated on the first item of their argument as XPath does. */
const STRING_FUNCTIONS = new Set(['normalize-space', 'string-length', 'substring-after', 'upper-case', 'local-name', 'matches']);

const localName = (qname: string): string => (qname.includes(':') ? qname.slice(qname.indexOf(':') + 1) : qname);

/** The parsed expression, or null when it is outside the subset. */
export function parseXPath(text: string): Expr | null {
  const tokens = tokenize(text);
  if (!tokens) return null;
  try {
    const p = new Parser(tokens);
    const e = p.expr();
    return p.done() ? e : null;
  } catch {
    return null;
  }
}

// --- Evaluation -----------------------------------------------------------------------------------------------------

function rootOf(el: El): El {
  let r = el;
  while (r.parent) r = r.parent;
  return r;
}

function descendants(el: El, out: El[] = []): El[] {
  for (const c of el.children) {
    out.push(c);
    descendants(c, out);
  }
  return out;
}

const nameMatches = (el: El, name: string): boolean => name === '*' || el.name === name;

export function applyStep(nodes: El[], step: Step): El[] | string[] {
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
    }
    for (const c of candidates) {
      if (seen.has(c) || !nameMatches(c, step.name)) continue;
      if (step.predicates.every((p) => truthy(evaluate(p, c)))) {
        seen.add(c);
        out.push(c);
      }
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
    const doc: El = { name: '#document', attrs: {}, text: '', children: [root], parent: null };
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
      let nodes: El[] = [];
      for (const part of e.parts) {
        const v = evaluate(part, context);
        if (Array.isArray(v)) for (const n of v) if (typeof n !== 'string' && !nodes.includes(n)) nodes.push(n);
      }
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
    default:
      return '';
  }
}
