/**
 * The curation result of one page: the engine's latest output checked against the analyst's latest text (or against
 * itself when nobody corrected it yet, so that reference-free checks — structure, repetition — still rank the page).
 */
import { runPageChecks, type PageCheckResults } from '../checks/pageChecks.js';
import type { CheckScores, KindChangeSummary } from '../contract/curation.js';
import type { Element } from '../model/extraction.js';
import { attributeChanges } from './attributeChanges.js';
import type { FieldDisagreement } from '../invoice/fieldShape.js';
import { describeDisagreement } from '../einvoice/pageVsXml.js';

export interface PageCheckInput {
  engineMarkdown: string;
  elements: readonly Element[];
  /** The latest revision's text, null when the page was never corrected. */
  correctedMarkdown: string | null;
  /** Page vs the document's e-invoice XML (Extraction.fields.pageVsXml); absent or empty where they agree. */
  invoiceDisagreements?: readonly FieldDisagreement[];
}


export interface PageCheckOutcome {
  scores: CheckScores;
  changedChars: number;
  kinds: KindChangeSummary[];
  results: PageCheckResults;
}

/** Rounded so that stored scores are the same on every machine and after a round trip through JSON. */
export function roundScore(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

const orNull = (value: number | undefined): number | null => (value === undefined ? null : roundScore(value));

export function checkPage(input: PageCheckInput): PageCheckOutcome {
  const reference = input.correctedMarkdown ?? input.engineMarkdown;
  const checked = runPageChecks(input.engineMarkdown, reference);
  const disagreements = input.invoiceDisagreements ?? [];
  // The score is the reward's (app/checks/reward.ts), the one `recto evaluate` gives the same texts: a page that
  // prints other values than its e-invoice states is listed with the disagreements and raised by the attention
  // queue's `xml-disagreement` signal, not scored 0 — which also zeroed every other page of such a document.
  const results =
    disagreements.length === 0
      ? checked
      : { ...checked, einvoice: { disagreements: [...disagreements], messages: disagreements.map(describeDisagreement) } };
  const changes =
    input.correctedMarkdown === null || input.correctedMarkdown === input.engineMarkdown
      ? attributeChanges(input.engineMarkdown, input.engineMarkdown, input.elements)
      : attributeChanges(input.engineMarkdown, input.correctedMarkdown, input.elements);
  return {
    scores: {
      score: roundScore(results.combined.score),
      text: roundScore(1 - results.text.ned),
      structure: roundScore(results.structure.score),
      tables: orNull(results.tables?.teds),
      tablesStructure: orNull(results.tables?.tedsStructure),
      formulas: orNull(results.formulas?.score),
      repetition: roundScore(results.repetition.score),
      unitTests: results.unitTests ? roundScore(results.unitTests.passed / results.unitTests.total) : null,
    },
    changedChars: changes.changedChars,
    kinds: changes.kinds,
    results,
  };
}
