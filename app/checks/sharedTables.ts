/**
 * The HTML tables of the last few texts parsed, shared: one save checks the engine's text against the analyst's
 * (runPageChecks) and derives the corpus tests from the same two texts (deriveBenchTests) — each text's tables are
 * parsed once instead of twice. Callers only read the grids.
 */
import { parseHtmlTables } from '../tables/htmlTables.js';
import type { TableGrid } from '../tables/grid.js';

const capacity = 4;
const recent = new Map<string, readonly TableGrid[]>();

export function sharedHtmlTables(markdown: string): readonly TableGrid[] {
  let tables = recent.get(markdown);
  if (tables) {
    recent.delete(markdown);
  } else {
    tables = parseHtmlTables(markdown);
    if (recent.size >= capacity) recent.delete(recent.keys().next().value!);
  }
  recent.set(markdown, tables);
  return tables;
}
