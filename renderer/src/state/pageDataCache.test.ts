import { describe, expect, it } from 'vitest';
import { PAGE_ID_SLOT, type PageReview } from '../../../app/contract/methods.js';
import { maxEntries, PageDataCache } from './pageDataCache.js';

/** A contract client whose replies the test releases by hand, counting every call. */
function fakeClient() {
  const calls: { method: string; pageId: string; resolve(value: unknown): void; reject(error: Error): void }[] = [];
  return {
    calls,
    client: {
      call: ((method: string, params: { pageId: string }) =>
        new Promise((resolve, reject) => calls.push({ method, pageId: params.pageId, resolve, reject }))) as never,
    },
    /** Answers every open call for `pageId` (reviews with `documentId`). */
    answer(pageId: string, documentId = 'd1') {
      const review = { page: { id: pageId, documentId }, imageUrl: `/img/${encodeURIComponent(pageId)}` } as unknown as PageReview;
      const fields = { engine: null, revisions: [], otherPagesText: `text of ${pageId}` };
      const replies: Record<string, unknown> = { 'pages.getReview': review, 'fields.document': fields, 'pages.getReviewAndFields': { review, fields } };
      for (const call of calls.filter((c) => c.pageId === pageId)) call.resolve(replies[call.method]);
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A cache that records the image URLs it starts loading (its `app.info` call left for the test to answer). */
function cacheLoadingImages() {
  const fake = fakeClient();
  const images: string[] = [];
  const cache = new PageDataCache(fake.client, (url) => {
    images.push(url);
    return {} as HTMLImageElement;
  });
  return { fake, cache, images };
}

describe('PageDataCache', () => {
  it('asks once per page, with one request for review and fields, shows nothing until the reply came, then both', async () => {
    const fake = fakeClient();
    const cache = new PageDataCache(fake.client, null);
    cache.prefetch(['p1', null, 'p1']);
    const review = cache.review('p1');
    expect(fake.calls.map((c) => c.method)).toEqual(['pages.getReviewAndFields']);
    expect(cache.peekReview('p1')).toBeNull();
    fake.answer('p1');
    await review;
    await settle();
    expect(cache.peekReview('p1')?.page.id).toBe('p1');
    expect(cache.peekFields('p1')?.otherPagesText).toBe('text of p1');
    expect(fake.calls).toHaveLength(1);
  });

  it('asks for review and fields apart where the joint request fails, so one failing part does not hide the other', async () => {
    const fake = fakeClient();
    const cache = new PageDataCache(fake.client, null);
    const review = cache.review('p1');
    const fields = cache.fields('p1');
    fake.calls[0]!.reject(new Error('fields unreadable'));
    await settle();
    expect(fake.calls.map((c) => c.method).sort()).toEqual(['fields.document', 'pages.getReview', 'pages.getReviewAndFields']);
    fake.calls.find((c) => c.method === 'pages.getReview')!.resolve({ page: { id: 'p1', documentId: 'd1' }, imageUrl: '/img/p1' });
    fake.calls.find((c) => c.method === 'fields.document')!.reject(new Error('fields unreadable'));
    expect((await review).page.id).toBe('p1');
    await expect(fields).rejects.toThrow('fields unreadable');
  });

  it('drops every page of an updated document, and keeps other documents', async () => {
    const fake = fakeClient();
    const cache = new PageDataCache(fake.client, null);
    cache.prefetch(['a1', 'a2', 'b1']);
    fake.answer('a1', 'A');
    fake.answer('a2', 'A');
    fake.answer('b1', 'B');
    await settle();
    cache.pageUpdated('a1', 'A');
    expect(cache.peekReview('a2')).toBeNull();
    expect(cache.peekFields('a1')).toBeNull();
    expect(cache.peekReview('b1')?.page.id).toBe('b1');
    cache.clear();
    expect(cache.peekReview('b1')).toBeNull();
  });

  it('does not keep a reply that was in flight when its page was updated', async () => {
    const fake = fakeClient();
    const cache = new PageDataCache(fake.client, null);
    cache.prefetch(['p1']);
    cache.pageUpdated('p1', 'd1');
    fake.answer('p1');
    await settle();
    expect(cache.peekReview('p1')).toBeNull();
    // The next visit asks again.
    void cache.review('p1');
    expect(fake.calls.filter((c) => c.method === 'pages.getReviewAndFields')).toHaveLength(2);
  });

  it('forgets a failed page so the next visit asks again, and reports the failure to whoever waits', async () => {
    const fake = fakeClient();
    const cache = new PageDataCache(fake.client, null);
    const review = cache.review('gone');
    fake.calls[0]!.reject(new Error('no such page'));
    await settle();
    for (const call of fake.calls.slice(1)) call.reject(new Error('no such page'));
    await expect(review).rejects.toThrow('no such page');
    await settle();
    void cache.review('gone');
    expect(fake.calls.map((c) => c.method)).toEqual(['pages.getReviewAndFields', 'pages.getReview', 'fields.document', 'pages.getReviewAndFields']);
  });

  it('keeps a bounded number of pages, the least recently used dropped first', async () => {
    const fake = fakeClient();
    const cache = new PageDataCache(fake.client, null);
    const ids = Array.from({ length: maxEntries + 6 }, (_, i) => `p${i}`);
    cache.prefetch(ids.slice(0, maxEntries));
    void cache.review('p0'); // p0 used again: p1 is now the oldest
    cache.prefetch(ids.slice(maxEntries));
    for (const id of ids) fake.answer(id);
    await settle();
    expect(cache.peekReview('p0')).not.toBeNull();
    expect(cache.peekReview('p1')).toBeNull();
    expect(cache.peekReview(`p${maxEntries + 5}`)).not.toBeNull();
    expect(cache.peekReview('p6')).toBeNull();
    expect(cache.peekReview('p7')).not.toBeNull();
  });

  it('starts decoding a page image once its review is known', async () => {
    const { fake, cache, images } = cacheLoadingImages();
    cache.prefetch(['p1']);
    fake.answer('p1');
    await settle();
    expect(images).toEqual(['/img/p1']);
  });

  it('asks for the image together with the review once the shell named its image URLs, and once only', async () => {
    const { fake, cache, images } = cacheLoadingImages();
    const info = fake.calls.find((call) => call.method === 'app.info')!;
    info.resolve({ pageImageUrlTemplate: `/img/${PAGE_ID_SLOT}` });
    await settle();
    cache.prefetch(['p 1']);
    // Before any reply: the image is on its way beside the review (its id URL-encoded as the shell does).
    expect(images).toEqual(['/img/p%201']);
    fake.answer('p 1');
    await settle();
    expect(images).toEqual(['/img/p%201']);
  });

  it('follows the review where the shell could not name its image URLs', async () => {
    const { fake, cache, images } = cacheLoadingImages();
    fake.calls.find((call) => call.method === 'app.info')!.reject(new Error('offline'));
    await settle();
    cache.prefetch(['p1']);
    expect(images).toEqual([]);
    fake.answer('p1');
    await settle();
    expect(images).toEqual(['/img/p1']);
  });

  it("asks for images at the viewer's screen copy width, and again at a new width when the page is next wanted", async () => {
    const { fake, cache, images } = cacheLoadingImages();
    fake.calls.find((call) => call.method === 'app.info')!.resolve({ pageImageUrlTemplate: `/img/${PAGE_ID_SLOT}` });
    await settle();
    cache.setScreenImageWidth(768);
    cache.prefetch(['p1']);
    fake.answer('p1');
    await settle();
    expect(images).toEqual(['/img/p1?w=768']);
    cache.setScreenImageWidth(null);
    expect(images).toHaveLength(1); // nothing reloads on its own
    cache.prefetch(['p1']);
    expect(images.at(-1)).toBe('/img/p1');
  });
});
