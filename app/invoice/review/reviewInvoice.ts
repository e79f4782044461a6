/**
 * What the rules see for one page under review: the engine's values with the analyst's corrections applied, line
 * items re-read from the Markdown once the analyst has edited its tables (so a fixed cell re-checks at once), and the
 * IBANs and VAT identifiers printed in the current text.
 */
import { extractInvoiceFields, toPlainFields } from '../extractFields.js';
import { evaluateInvoiceRules } from '../rules/evaluateRules.js';
import { findIdentifiers } from '../rules/findIdentifiers.js';
import { round2, type RuleFormat } from '../rules/money.js';
import type { RuleInvoice, RuleResult } from '../rules/ruleTypes.js';
import { formatAmountIn, formatQuantityIn, type NumberFormat } from './numberFormat.js';
import { applyFieldCorrections, type FieldCorrection } from './corrections.js';
import type { EngineFieldValues } from './engineFields.js';

/** The tables of a Markdown page as text: HTML tables and pipe-table rows. */
export function tablesOf(markdown: string): string {
  const html = markdown.match(/<table[\s\S]*?<\/table>/gi) ?? [];
  const pipes = markdown.split('\n').filter((line) => /^\s*\|/.test(line));
  return [...html, ...pipes].join('\n');
}

/**
 * Line items for the current text: the engine's, unless the analyst changed the Markdown's tables — then the lines
 * read from the edited Markdown (where it yields any).
 */
export function linesForText(engine: EngineFieldValues, engineMarkdown: string, currentMarkdown: string): EngineFieldValues['lines'] {
  if (currentMarkdown === engineMarkdown || tablesOf(currentMarkdown) === tablesOf(engineMarkdown)) return engine.lines;
  const reread = toPlainFields(extractInvoiceFields({ markdown: currentMarkdown })).lines;
  return reread.length > 0 ? reread : engine.lines;
}

export interface ReviewInput {
  engine: EngineFieldValues;
  corrections: readonly FieldCorrection[];
  engineMarkdown: string;
  currentMarkdown: string;
}

export function reviewValues(input: ReviewInput): EngineFieldValues {
  const lines = linesForText(input.engine, input.engineMarkdown, input.currentMarkdown);
  return applyFieldCorrections({ ...input.engine, lines }, input.corrections);
}

export function toRuleInvoice(values: EngineFieldValues, text: string): RuleInvoice {
  const identifiers = findIdentifiers(text);
  return { ...values, ibans: identifiers.ibans, vat_ids: identifiers.vat_ids };
}

/** The rules' messages in the document's number format: "1.234,50" where the page prints German amounts. */
export function ruleFormatOf(format: NumberFormat): RuleFormat {
  return { amount: (value) => formatAmountIn(round2(value), format), number: (value) => formatQuantityIn(value, format) };
}

/** `format`: the document's number format (detectNumberFormat); messages print dot decimals without one. */
export function reviewRules(values: EngineFieldValues, text: string, format?: NumberFormat): RuleResult[] {
  return evaluateInvoiceRules(toRuleInvoice(values, text), format ? ruleFormatOf(format) : undefined);
}

/**
 * The rule results that are the document's findings. Where the document's values are its e-invoice XML's, the XML is
 * checked by the EN 16931 engine itself (its fatal failures are the document's exceptions); the page rules, run on
 * the plain values (no line allowances, base quantities or rounding amounts), would only restate or misstate those —
 * so a failing page rule counts there only where it reads a value the analyst corrected.
 */
export function documentRuleResults(results: readonly RuleResult[], origin: 'xml' | 'page', corrected: ReadonlySet<string>): RuleResult[] {
  if (origin === 'page') return [...results];
  return results.filter((r) => r.status !== 'fail' || r.fields.some((field) => corrected.has(field)));
}
