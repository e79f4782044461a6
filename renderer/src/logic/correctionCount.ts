/**
 * What the status bar says about a page's corrections: its text revisions and the invoice fields that stand corrected
 * (a field whose corrections were undone back to the engine's value is not counted). Field corrections are
 * corrections too: "No corrections yet" after correcting the total would mislead.
 */
export function describeCorrections(textRevisions: number, correctedFields: number): string {
  const parts: string[] = [];
  if (textRevisions > 0) parts.push(`${textRevisions} ${textRevisions === 1 ? 'revision' : 'revisions'}`);
  if (correctedFields > 0) parts.push(`${correctedFields} ${correctedFields === 1 ? 'field' : 'fields'} corrected`);
  return parts.length > 0 ? parts.join(' · ') : 'No corrections yet';
}
