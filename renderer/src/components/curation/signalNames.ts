/** The needs-attention signals as the curation view names them (chips, filter buttons). */
import type { AttentionSignalKind } from '../../../../app/review/attention.js';

export const signalNames: Record<AttentionSignalKind, string> = {
  'failed-rule': 'Failed rule',
  'xml-disagreement': 'Page ≠ XML',
  'low-confidence': 'Low confidence',
  'missing-field': 'Missing field',
  repetition: 'Repetition',
  'table-structure': 'Table structure',
  duplicate: 'Duplicate?',
  'no-boxes': 'No boxes',
  'match-failed': 'Match failed',
  reopened: 'Changed after approval',
  'decision-conflict': 'Decision conflict',
  'bank-account': 'New bank account',
};
