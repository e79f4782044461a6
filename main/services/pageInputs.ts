/**
 * An engine's input for a stored page: its image from the cache (rendered again from the project's copy of the
 * source when the cache lost it), its size and its PDF text layer. Shared by the reading queue and evaluations.
 */
import type { PageInput } from '../../app/model/engine.js';
import type { PageRecord, ProjectStore } from '../store/projectStore.js';
import type { PageImageCache } from './pageImageCache.js';

export async function pageInputFor(images: PageImageCache, store: ProjectStore, page: PageRecord): Promise<PageInput> {
  return {
    imagePath: await images.ensure(page.documentSha256, page.pageNumber, page.documentName, () => store.documents.getSourceBytes(page.documentSha256)),
    width: page.width,
    height: page.height,
    dpi: page.dpi,
    textLayer: page.textLayer,
    label: `${page.documentName} p. ${page.pageNumber}`,
  };
}
