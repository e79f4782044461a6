/**
 * Every regular expression in the product's source (app/, main/, native-models/, renderer/; tests excluded) is free
 * of the backtracking shapes that testing/regexBacktracking.ts reports, unless it is listed below with the reason its
 * input is bounded or trusted. A new pattern of such a shape on untrusted text fails this test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { backtrackingHazards } from './regexBacktracking.js';

const root = join(import.meta.dirname, '..');
const productFolders = ['app', 'main', 'native-models', 'renderer/src'];

/** `file: pattern source` → why the pattern cannot be made to backtrack badly. */
const allowed = new Map<string, string>([
  [
    'app/checks/formula.ts: (?<![\\\\$])\\$(?!\\$)((?:\\\\\\$|[^$\\n])+?)\\$(?!\\$)',
    'the alternatives differ at their second character (`$`, which `[^$\\n]` cannot take): one way to match each text',
  ],
  [
    'app/invoice/partyNames.ts: ^(?:(?:copy|kopie|copie|duplicate|duplikat|original|tax|retail|commercial|proforma|pro-forma)\\s+)*(?:invoices?|bill|receipt|payment\\s+receipt|rechnung|gutschrift|quittung|facture|avoir|re[çc]u|factuur|faktura|credit\\s+note)(?:\\s*\\/\\s*bill)?[.:]?$',
    'each repetition is a fixed word then spaces, and a word starts with a letter: one way to split a line',
  ],
  [
    'app/invoice/unlabelledParties.ts: (?:@|https?:\\/\\/|www\\.)((?:[a-z\\d-]+\\.)*[a-z\\d-]+)\\.[a-z]{2,6}\\b',
    'the dots separate the labels, which cannot contain one: one way to split a host name',
  ],
  [
    'app/en16931/xrechnung/xrechnungRules.ts: ^[^@ \\t\\n\\r]+@([^@. \\t\\n\\r]+\\.)+[^@. \\t\\n\\r]+$',
    "KoSIT's e-mail pattern (BR-DE-28): each repetition ends at a dot, which the labels cannot contain: one way to split a domain",
  ],
]);

function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') out.push(...sourceFiles(path));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

interface FoundPattern {
  line: number;
  source: string;
  flags: string;
}

/** Regex literals, and `new RegExp(…)`/`RegExp(…)` whose pattern is a string or a template of the file's own constants. */
function patternsIn(path: string): FoundPattern[] {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const constants = new Map<string, ts.Expression>();
  const found: FoundPattern[] = [];
  const lineOf = (node: ts.Node): number => file.getLineAndCharacterOfPosition(node.getStart()).line + 1;

  /** A string expression's value with unknown parts as a neutral letter (`Q`), or null when it is not one. */
  const evaluate = (node: ts.Expression, depth = 0): string | null => {
    if (depth > 10) return null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isNumericLiteral(node)) return node.text;
    if (ts.isParenthesizedExpression(node)) return evaluate(node.expression, depth + 1);
    if (ts.isIdentifier(node)) {
      const value = constants.get(node.text);
      return value ? evaluate(value, depth + 1) : null;
    }
    if (ts.isTemplateExpression(node)) {
      let out = node.head.text;
      for (const span of node.templateSpans) {
        out += evaluate(span.expression, depth + 1) ?? 'Q';
        out += span.literal.text;
      }
      return out;
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = evaluate(node.left, depth + 1);
      const right = evaluate(node.right, depth + 1);
      return left === null || right === null ? null : left + right;
    }
    return null;
  };

  const collectConstants = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) constants.set(node.name.text, node.initializer);
    ts.forEachChild(node, collectConstants);
  };
  collectConstants(file);

  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(file);
      const slash = literal.lastIndexOf('/');
      found.push({ line: lineOf(node), source: literal.slice(1, slash), flags: literal.slice(slash + 1) });
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
      const [pattern, flags] = node.arguments ?? [];
      const source = pattern ? evaluate(pattern) : null;
      if (source !== null) found.push({ line: lineOf(node), source, flags: (flags && evaluate(flags)) ?? '' });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('regular expressions in the product', () => {
  it('have no nested quantifiers or competing runs (ReDoS) unless listed with a reason', () => {
    const findings: string[] = [];
    let scanned = 0;
    for (const folder of productFolders) {
      for (const path of sourceFiles(join(root, folder))) {
        const file = relative(root, path);
        for (const pattern of patternsIn(path)) {
          scanned++;
          let hazards: string[];
          try {
            hazards = backtrackingHazards(pattern.source, pattern.flags);
          } catch {
            continue; // a pattern assembled from parts this scan cannot see (an imported constant in a quantifier)
          }
          if (hazards.length > 0 && !allowed.has(`${file}: ${pattern.source}`)) findings.push(`${file}:${pattern.line} /${pattern.source}/ — ${hazards.join('; ')}`);
        }
      }
    }
    expect(scanned).toBeGreaterThan(500);
    expect(findings).toEqual([]);
  });
});

describe('backtrackingHazards', () => {
  it('reports the shapes that backtrack and passes the ones that do not', () => {
    expect(backtrackingHazards('^[-+]?(?:\\d+\\.?\\d*|\\.\\d+)$')).not.toEqual([]); // hole 1 of issue 23
    expect(backtrackingHazards('(?:<!--[\\s\\S]*?-->\\s*)*<x')).not.toEqual([]);
    expect(backtrackingHazards('(a+)+$')).not.toEqual([]);
    expect(backtrackingHazards('(?:a|ab)*c')).not.toEqual([]);
    expect(backtrackingHazards('^\\s*-?\\s*x')).not.toEqual([]);
    expect(backtrackingHazards('^[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)$')).toEqual([]);
    expect(backtrackingHazards('^\\d{1,3}(?:[.,]\\d{3})+$')).toEqual([]);
    expect(backtrackingHazards('\\p{L}[\\p{L}\\p{M}]*', 'u')).toEqual([]);
  });
});
