/**
 * A page's error as the page keeps it: without the page's own label. Engines name the page in their errors
 * (`invoice.pdf p. 1: cannot read …`) so that an error read on its own says where it happened; the page row, the job's
 * error list and every report that shows it name the page already, and adding the label again gave
 * `invoice.pdf p. 1: invoice.pdf p. 1: …`.
 */
export function pageLabel(page: { documentName: string; pageNumber: number }): string {
  return `${page.documentName} p. ${page.pageNumber}`;
}

/** The message with every leading `<label>: ` taken off. */
export function withoutPageLabel(message: string, label: string): string {
  const prefix = `${label}: `;
  let rest = message;
  while (rest.startsWith(prefix)) rest = rest.slice(prefix.length);
  return rest;
}
