/**
 * The small part of XPath the syntax binding rules are written in: location paths of element names (prefixes ignored
 * — the XML reader drops them), `@attribute`, `..`, `.`, `*`, `//`, predicates; `not()`, `count()`, `exists()`,
 * `true()`/`false()`, `and`/`or`, general comparisons with string and number literals, `ends-with(name(), '…')`,
 * `self::`, `ancestor::`. An expression outside this subset does not parse (`parseXPath` returns null) and its rule is
 * left out — never guessed. Evaluated (./xpathEvaluate.ts) over `El`, a light element tree with parent links built from the parsed XML.
 */


export interface El {
  name: string;
  attrs: Record<string, string>;
  text: string;
  children: El[];
  parent: El | null;
}

export type Value = El[] | string[] | number | boolean | string;

export type Expr =
  | { kind: 'or' | 'and'; left: Expr; right: Expr }
  | { kind: 'cmp'; op: string; left: Expr; right: Expr }
  | { kind: 'not' | 'exists' | 'count'; arg: Expr }
  | { kind: 'endsWithName'; suffix: string }
  | { kind: 'fn'; name: string; args: Expr[] }
  | { kind: 'lit'; value: string | number | boolean }
  | { kind: 'path'; absolute: 'none' | 'root' | 'descendant'; steps: Step[] }
  | { kind: 'union'; parts: Expr[]; steps: Step[]; position?: number }
  | { kind: 'arith'; op: '-' | '+'; left: Expr; right: Expr };

export interface Step {
  axis: 'child' | 'descendant' | 'attribute' | 'parent' | 'self' | 'ancestor' | 'preceding';
  name: string; // local name or '*'
  predicates: Expr[];
  /** A function applied to each node of the set so far (`cac:TaxScheme/upper-case(cbc:ID)`): the step yields strings. */
  fn?: Expr;
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
      let position: number | undefined;
      if (this.peek() === '[' && /^\d+$/.test(this.peek(1) ?? '') && this.peek(2) === ']') {
        this.take();
        position = Number(this.take());
        this.take(']');
      }
      if (this.peek() !== '/' && this.peek() !== '//') return position === undefined ? e : { kind: 'union', parts: e.kind === 'union' ? e.parts : [e], steps: [], position };
      // `(a | b)/c`: further steps from each node of the parenthesized node set.
      const steps: Step[] = [];
      while (this.peek() === '/' || this.peek() === '//') {
        const sep = this.take();
        steps.push(this.step(sep === '//' ? 'descendant' : 'child'));
      }
      return { kind: 'union', parts: e.kind === 'union' ? e.parts : [e], steps, position };
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
    if (STRING_FUNCTIONS.has(this.peek() ?? '') && this.peek(1) === '(') return { axis: 'self', name: '*', predicates: [], fn: this.call() };
    const tok = this.take();
    let step: Step;
    if (tok === '..') step = { axis: 'parent', name: '*', predicates: [] };
    else if (tok === '.') step = { axis: 'self', name: '*', predicates: [] };
    else if (tok === '@') step = { axis: 'attribute', name: localName(this.take()), predicates: [] };
    else if (tok.endsWith('::')) {
      const named = tok.slice(0, -2);
      if (named !== 'self' && named !== 'ancestor' && named !== 'preceding') throw new Error('axis');
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
export const STRING_FUNCTIONS = new Set(['normalize-space', 'string-length', 'substring-after', 'upper-case', 'local-name', 'matches', 'distinct-values']);

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
