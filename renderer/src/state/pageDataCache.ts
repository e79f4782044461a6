/**
 * What the review screen needs to show a page — its review and its document's fields (both in one
 * `pages.getReviewAndFields`) and its decoded image — kept per page in the renderer, so that stepping to a page that was
 * asked for ahead (the neighbours of the page on screen, the next page needing attention) shows it in the same frame
 * instead of after a round trip and an image download.
 *
 * Freshness: an entry is dropped as soon as the main side announces a change that could alter it (`page.updated` for
 * any page of its document: the fields and the other pages' text are document-wide; `documents.changed`; a
 * reconnect, after which events may have been missed). A reply that was in flight when its entry was dropped is not
 * kept. So a shown entry is never older than the last update the main side announced.
 */
import type { ContractClient } from '../../../app/contract/client.js';
import type { DocumentFieldsReply } from '../../../app/contract/fields.js';
import { pageImageUrlOf, type PageReview } from '../../../app/contract/methods.js';
import { withScreenImageWidth, type ScreenImageWidth } from '../../../app/contract/screenImage.js';

/**
 * Pages kept at most: the page on screen, the four asked for ahead, a few just left. Small on purpose: each entry
 * holds its image element, and a decoded scan is tens of megabytes (the browser may drop decoded data, not the file).
 */
export const maxEntries = 12;

interface Slot<T> {
  promise: Promise<T>;
  /** Set once the promise resolved (what a render can show at once). */
  value?: T;
}

interface Entry {
  review: Slot<PageReview>;
  fields: Slot<DocumentFieldsReply>;
  /** Known once the review came back; an unknown document is dropped on any page update. */
  documentId: string | null;
  /** Kept so the browser keeps the decoded page in its image cache. */
  image: HTMLImageElement | null;
  /** The URL that image was asked for at. */
  imageUrl: string | null;
}

type CacheClient = Pick<ContractClient, 'call'>;

export class PageDataCache {
  private readonly entries = new Map<string, Entry>();
  /**
   * The shell's page image URL template (`app.info`), once known: a page's image is then asked for together with its
   * review. Before, the image waited for the review's reply to name it — a second round trip, and on busy cores the
   * slowest page switches were the ones whose image had not arrived while the text had (bench:ui, docs/benchmarks.md).
   */
  private imageUrlTemplate: string | null = null;
  /** The screen copy the viewer shows pages at (PageViewer): images asked for ahead are fetched at that URL. */
  private screenImageWidth: ScreenImageWidth | null = null;

  constructor(
    private readonly client: CacheClient,
    /** Starts decoding a page image ahead (null where there is no DOM, as in unit tests). */
    private readonly preloadImage: ((url: string) => HTMLImageElement) | null = defaultPreloadImage,
  ) {
    if (preloadImage) {
      client.call('app.info', {}).then(
        (info) => (this.imageUrlTemplate = info.pageImageUrlTemplate),
        () => undefined, // the image then follows the review, as it would without a template
      );
    }
  }

  /** The page's review, if it is here and current. */
  peekReview(pageId: string | null): PageReview | null {
    return (pageId && this.entries.get(pageId)?.review.value) || null;
  }

  /** The page's document fields, if they are here and current. */
  peekFields(pageId: string | null): DocumentFieldsReply | null {
    return (pageId && this.entries.get(pageId)?.fields.value) || null;
  }

  review(pageId: string): Promise<PageReview> {
    return this.entry(pageId).review.promise;
  }

  fields(pageId: string): Promise<DocumentFieldsReply> {
    return this.entry(pageId).fields.promise;
  }

  /** Asks for these pages ahead (their review, fields and image); failures are left for the real visit to report. */
  prefetch(pageIds: readonly (string | null)[]): void {
    for (const pageId of pageIds) {
      if (!pageId) continue;
      const entry = this.entry(pageId);
      entry.review.promise.catch(() => undefined);
      entry.fields.promise.catch(() => undefined);
    }
  }

  /**
   * The viewer now shows pages at this screen copy width (null: the page images themselves). Pages kept here are
   * asked for at the new URL when next wanted (stepped to or asked for ahead), not all at once.
   */
  setScreenImageWidth = (width: ScreenImageWidth | null): void => {
    this.screenImageWidth = width;
  };

  /** `page.updated`: everything of that document may have changed (fields and other-page text are document-wide). */
  pageUpdated(pageId: string, documentId: string): void {
    for (const [key, entry] of this.entries) {
      if (key === pageId || entry.documentId === documentId || entry.documentId === null) this.entries.delete(key);
    }
  }

  /** `documents.changed` or a reconnect: nothing here can be trusted any more. */
  clear(): void {
    this.entries.clear();
  }

  private entry(pageId: string): Entry {
    const existing = this.entries.get(pageId);
    if (existing) {
      // Most recently used last, so the oldest is dropped first.
      this.entries.delete(pageId);
      this.entries.set(pageId, existing);
      // The viewer's copy width may have changed since (a resized window, a zoom).
      this.preloadImageOf(existing, existing.review.value?.imageUrl ?? this.templateUrl(pageId));
      return existing;
    }
    // One request for both (each request costs the main thread a fetch and the server a round trip); where it fails,
    // each part is asked for on its own, so a page whose fields cannot be read still shows its review, as before.
    const both = this.client.call('pages.getReviewAndFields', { pageId });
    const entry: Entry = {
      review: { promise: both.then((reply) => reply.review, () => this.client.call('pages.getReview', { pageId })) },
      fields: { promise: both.then((reply) => reply.fields, () => this.client.call('fields.document', { pageId })) },
      documentId: null,
      image: null,
      imageUrl: null,
    };
    this.preloadImageOf(entry, this.templateUrl(pageId));
    // A reply counts only while its entry is still the one in the map (not dropped by an update meanwhile).
    const current = () => this.entries.get(pageId) === entry;
    entry.review.promise.then(
      (review) => {
        if (!current()) return;
        entry.review.value = review;
        entry.documentId = review.page.documentId;
        this.preloadImageOf(entry, review.imageUrl);
      },
      () => current() && this.entries.delete(pageId),
    );
    entry.fields.promise.then(
      (fields) => {
        if (current()) entry.fields.value = fields;
      },
      () => current() && this.entries.delete(pageId),
    );
    this.entries.set(pageId, entry);
    while (this.entries.size > maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  private templateUrl(pageId: string): string | null {
    return this.imageUrlTemplate && pageImageUrlOf(this.imageUrlTemplate, pageId);
  }

  /** Starts loading and decoding the page's image (`pageUrl` at the viewer's copy width), unless already asked for. */
  private preloadImageOf(entry: Entry, pageUrl: string | null): void {
    const url = pageUrl && withScreenImageWidth(pageUrl, this.screenImageWidth);
    if (!this.preloadImage || !url || entry.imageUrl === url) return;
    entry.imageUrl = url;
    entry.image = this.preloadImage(url);
  }
}

function defaultPreloadImage(url: string): HTMLImageElement {
  const image = new Image();
  image.decoding = 'async';
  image.src = url;
  // Decoded off the main thread now, so showing it later costs no decode; a failure shows when the page is opened.
  image.decode().catch(() => undefined);
  return image;
}
