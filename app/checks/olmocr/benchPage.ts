/**
 * One page's Markdown with what olmOCR-Bench tests read from it — the normalised text, the tables with their
 * normalised cell texts, the normalised math segments — each computed once, on first use. Running many tests on one
 * page (a bench file, or the dozens of candidates deriveBenchTests tries on a correction) would otherwise parse the
 * tables and normalise every cell again for each test, which made derivation cost tens of ms per page.
 */
import { normalizeLatex, extractMath } from '../formula.js';
import { parseLenientPipeTables, type TableCell, type TableGrid } from '../../tables/index.js';
import { sharedHtmlTables } from '../sharedTables.js';
import { normalizeBenchText } from './normalize.js';

export class BenchPage {
  private normalizedText: string | undefined;
  private foldedText: string | undefined;
  private tableList: TableGrid[] | undefined;
  private htmlTableList: readonly TableGrid[] | undefined;
  private readonly cellTexts = new Map<TableCell, string>();
  private mathSegments: string[] | undefined;

  constructor(readonly markdown: string) {}

  /** normalizeBenchText of the page. */
  get normalized(): string {
    return (this.normalizedText ??= normalizeBenchText(this.markdown));
  }

  /** normalizeBenchText of the lower-cased page (case-insensitive presence tests fold before normalising). */
  get normalizedLowerCase(): string {
    return (this.foldedText ??= normalizeBenchText(this.markdown.toLowerCase()));
  }

  /** Pipe tables (read leniently, as upstream) then HTML tables. */
  get tables(): readonly TableGrid[] {
    return (this.tableList ??= [...parseLenientPipeTables(this.markdown), ...this.htmlTables]);
  }

  /** The page's HTML tables. */
  get htmlTables(): readonly TableGrid[] {
    return (this.htmlTableList ??= sharedHtmlTables(this.markdown));
  }

  /** A cell's text as table tests compare it: normalised and trimmed. */
  cellText(cell: TableCell): string {
    let text = this.cellTexts.get(cell);
    if (text === undefined) {
      text = normalizeBenchText(cell.text).trim();
      this.cellTexts.set(cell, text);
    }
    return text;
  }

  /** The page's math segments, LaTeX-normalised. */
  get normalizedMath(): readonly string[] {
    return (this.mathSegments ??= extractMath(this.markdown).map(normalizeLatex));
  }
}

export function benchPageOf(page: string | BenchPage): BenchPage {
  return typeof page === 'string' ? new BenchPage(page) : page;
}
