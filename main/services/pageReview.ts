/**
 * What the review screen shows for a page, read from the project: the page's review (`pages.getReview`) and its
 * document's invoice fields (`fields.document`); `pages.getReviewAndFields` answers both in one reply.
 */
import type { ReplyOf } from '../../app/contract/methods.js';
import type { ProjectStore } from '../store/projectStore.js';

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
    engine: store.fieldRevisions.documentEngine(pageId),
    revisions: store.fieldRevisions.list(pageId),
    otherPagesText: others.map((id) => store.revisions.latestRevision(id)?.text ?? store.readings.latestExtractionOrNull(id)?.markdown ?? '').join('\n\n'),
  };
}
