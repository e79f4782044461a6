/**
 * What the review screen shows for a page, read from the project: the page's review (`pages.getReview`) and its
 * document's invoice fields (`fields.document`); `pages.getReviewAndFields` answers both in one reply.
 */
import type { ReplyOf } from '../../app/contract/methods.js';
import type { ProjectStore } from '../store/projectStore.js';
import { NotFoundError } from '../store/documents.js';
import type { DocumentEngineFields } from '../../app/invoice/review/documentView.js';

/** The page, its latest reading and revision; `imageUrl` is where this shell serves its image. */
export function pageReviewOf(store: ProjectStore, pageId: string, imageUrl: string): ReplyOf<'pages.getReview'> {
  const page = store.documents.getPage(pageId);
  const { textLayer: _textLayer, documentName, documentSha256: _sha, mediaType: _type, ...summary } = page;
  return {
    page: summary,
    documentName,
    imageUrl,
    extraction: store.readings.latestExtraction(pageId),
    latestRevision: store.revisions.latestRevision(pageId),
  };
}

/** The fields of the page's document: the engine's over its pages, the corrections, the other pages' current text. */
export function documentFieldsOf(store: ProjectStore, pageId: string): ReplyOf<'fields.document'> {
  store.documents.getPage(pageId);
  const others = store.fieldRevisions.documentPageIds(pageId).filter((id) => id !== pageId);
  return {
    engine: withTeachingDocuments(store, store.fieldRevisions.documentEngine(pageId)),
    revisions: store.fieldRevisions.list(pageId),
    otherPagesText: others.map((id) => store.revisions.latestRevision(id)?.text ?? store.readings.latestExtractionOrNull(id)?.markdown ?? '').join('\n\n'),
  };
}

type EngineFieldsWire = NonNullable<ReplyOf<'fields.document'>['engine']>;

/** Each value memory read names the document that taught it (null where that document has left the project). */
function withTeachingDocuments(store: ProjectStore, engine: DocumentEngineFields | null): EngineFieldsWire | null {
  if (!engine) return null;
  const names = new Map<string, string | null>();
  const nameOf = (pageId: string): string | null => {
    if (!names.has(pageId)) {
      try {
        names.set(pageId, store.documents.getPage(pageId).documentName);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
        names.set(pageId, null); // removed from the project since it taught
      }
    }
    return names.get(pageId)!;
  };
  const sources = Object.fromEntries(
    Object.entries(engine.sources).map(([path, { memory, ...source }]) => [path, memory ? { ...source, memory: { ...memory, taughtByDocument: nameOf(memory.taughtBy) } } : source]),
  );
  return { ...engine, sources };
}
