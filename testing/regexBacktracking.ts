/**
 * Finds regular expressions whose backtracking can grow faster than the text: the shape of hole 1 of issue 23
 * (`^[-+]?(?:\d+\.?\d*|\.\d+)$` took 51 s on a 138 KB e-invoice). Two shapes are reported:
 *
 * - nested quantifiers: an unbounded repetition inside another (`(a+)+`, `(?:\s*\w+)*`) — exponential;
 * - competing runs: two unbounded repetitions in one sequence, with only optional items between them, that can
 *   consume the same character (`\d+\.?\d*`, `\s*\S*\s*`) — polynomial: each extra run multiplies the tries;
 * - an unbounded repetition of alternatives that can start with the same character (`(?:a|ab)*`) — exponential.
 *
 * Character sets are computed by testing each atom against a sample of characters (ASCII, Latin-1, general
 * punctuation, currency symbols, a few scripts), so an overlap outside the sample is missed; a group's set is the
 * union of its atoms' (an over-approximation: a reported pattern may be safe, which its allow-list entry then says).
 */
import regexpTree from 'regexp-tree';
import type { AstNode, Expression, Repetition } from 'regexp-tree/ast';

export interface RegexFinding {
  pattern: string;
  problem: string;
}

const SAMPLE: string[] = (() => {
  const points: number[] = [];
  for (let c = 0; c < 0x300; c++) points.push(c);
  for (let c = 0x2000; c < 0x2070; c++) points.push(c);
  for (let c = 0x20a0; c < 0x20c1; c++) points.push(c);
  points.push(0x0391, 0x03b1, 0x0410, 0x0430, 0x05d0, 0x0627, 0x0660, 0x0966, 0x3000, 0x4e00, 0xfeff, 0xff10);
  return points.map((p) => String.fromCodePoint(p));
})();

function isUnbounded(rep: Repetition): boolean {
  const q = rep.quantifier;
  return q.kind === '*' || q.kind === '+' || (q.kind === 'Range' && q.to === undefined);
}

function isOptional(node: Expression): boolean {
  if (node.type === 'Assertion') return true; // zero-width
  if (node.type === 'Repetition') {
    const q = node.quantifier;
    return q.kind === '*' || q.kind === '?' || (q.kind === 'Range' && q.from === 0);
  }
  return false;
}

/** The sample characters one atom (Char or CharacterClass) matches. */
function atomChars(node: AstNode, flags: string): Set<string> {
  const source = regexpTree.generate(node);
  const re = new RegExp(`^(?:${source})$`, flags.replace(/[gy]/g, ''));
  return new Set(SAMPLE.filter((c) => re.test(c)));
}

/** Every sample character an expression can consume anywhere (lookarounds and backreferences consume none here). */
function charsOf(node: Expression | null, flags: string): Set<string> {
  if (!node) return new Set();
  switch (node.type) {
    case 'Char':
    case 'CharacterClass':
      return atomChars(node, flags);
    case 'Alternative':
      return union(node.expressions.map((e) => charsOf(e, flags)));
    case 'Disjunction':
      return union([charsOf(node.left, flags), charsOf(node.right, flags)]);
    case 'Group':
      return charsOf(node.expression, flags);
    case 'Repetition':
      return charsOf(node.expression, flags);
    default:
      return new Set();
  }
}

function union(sets: Set<string>[]): Set<string> {
  const out = new Set<string>();
  for (const s of sets) for (const c of s) out.add(c);
  return out;
}

function overlaps(a: Set<string>, b: Set<string>): boolean {
  for (const c of a) if (b.has(c)) return true;
  return false;
}

function containsUnbounded(node: Expression | null): boolean {
  if (!node) return false;
  switch (node.type) {
    case 'Repetition':
      return isUnbounded(node) || containsUnbounded(node.expression);
    case 'Alternative':
      return node.expressions.some(containsUnbounded);
    case 'Disjunction':
      return containsUnbounded(node.left) || containsUnbounded(node.right);
    case 'Group':
      return containsUnbounded(node.expression);
    default:
      return false;
  }
}

function alternativesOf(node: Expression | null): (Expression | null)[] {
  if (node?.type === 'Group') return alternativesOf(node.expression);
  if (node?.type === 'Disjunction') return [...alternativesOf(node.left), ...alternativesOf(node.right)];
  return [node];
}

/** The characters a match of `node` can start with (over-approximated by all its characters). */
function firstChars(node: Expression | null, flags: string): Set<string> {
  if (node?.type === 'Alternative') {
    const out = new Set<string>();
    for (const e of node.expressions) {
      for (const c of charsOf(e, flags)) out.add(c);
      if (!isOptional(e)) break;
    }
    return out;
  }
  return charsOf(node, flags);
}

function walk(node: Expression | null, flags: string, problems: string[]): void {
  if (!node) return;
  switch (node.type) {
    case 'Repetition': {
      if (isUnbounded(node)) {
        if (containsUnbounded(node.expression)) problems.push(`nested quantifiers in ${regexpTree.generate(node)}`);
        const alternatives = alternativesOf(node.expression);
        if (alternatives.length > 1) {
          const starts = alternatives.map((a) => firstChars(a, flags));
          for (let i = 0; i < starts.length; i++) {
            for (let j = i + 1; j < starts.length; j++) {
              if (overlaps(starts[i]!, starts[j]!)) problems.push(`repeated alternatives start alike in ${regexpTree.generate(node)}`);
            }
          }
        }
      }
      walk(node.expression, flags, problems);
      return;
    }
    case 'Alternative': {
      const items = node.expressions;
      for (let i = 0; i < items.length; i++) {
        const first = items[i]!;
        if (first.type !== 'Repetition' || !isUnbounded(first)) continue;
        const firstSet = charsOf(first.expression, flags);
        for (let j = i + 1; j < items.length; j++) {
          const next = items[j]!;
          if (next.type === 'Repetition' && isUnbounded(next) && overlaps(firstSet, charsOf(next.expression, flags))) {
            problems.push(`competing runs ${regexpTree.generate(first)} … ${regexpTree.generate(next)}`);
            break;
          }
          if (!isOptional(next)) break;
        }
      }
      for (const e of items) walk(e, flags, problems);
      return;
    }
    case 'Disjunction':
      walk(node.left, flags, problems);
      walk(node.right, flags, problems);
      return;
    case 'Group':
      walk(node.expression, flags, problems);
      return;
    case 'Assertion':
      if (node.kind === 'Lookahead' || node.kind === 'Lookbehind') walk(node.assertion, flags, problems);
      return;
    default:
      return;
  }
}

/** The backtracking hazards of one pattern (`/source/flags`), none for a safe one. Throws on a pattern it cannot parse. */
export function backtrackingHazards(source: string, flags = ''): string[] {
  const ast = regexpTree.parse(`/${source}/${flags}`, { allowGroupNameDuplicates: true });
  const problems: string[] = [];
  walk(ast.body, ast.flags, problems);
  return [...new Set(problems)];
}
