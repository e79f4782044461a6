/**
 * Page order across documents, for the rail and for PageUp/PageDown.
 */
import type { DocumentSummary, PageSummary } from '../../../app/model/page.js';

export function allPages(documents: readonly DocumentSummary[]): PageSummary[] {
  return documents.flatMap((document) => document.pages);
}

/** The page `step` places after (or before, when negative) `pageId`, clamped to the ends; null when there are no pages. */
export function neighbourPage(documents: readonly DocumentSummary[], pageId: string | null, step: number): string | null {
  const pages = allPages(documents);
  if (pages.length === 0) return null;
  const index = pages.findIndex((page) => page.id === pageId);
  if (index < 0) return pages[0]!.id;
  const next = Math.min(pages.length - 1, Math.max(0, index + step));
  return pages[next]!.id;
}

/** Keeps the selection when the page still exists, otherwise picks the first page (or nothing). */
export function keepOrFirstPage(documents: readonly DocumentSummary[], pageId: string | null): string | null {
  const pages = allPages(documents);
  if (pageId && pages.some((page) => page.id === pageId)) return pageId;
  return pages[0]?.id ?? null;
}
