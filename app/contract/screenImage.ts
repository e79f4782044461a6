/**
 * Screen copies of a page image: the page at a width the viewer draws it at, made beside the page image when it is
 * rendered (import, or a render again after the cache lost it), so that showing a page decodes a fraction of its
 * pixels. A 150 dpi A4 page is 1240 px wide and a 300 dpi scan 2480, while the viewer fits the page into a pane of
 * 500–900 CSS pixels; the browser decodes the whole file before scaling it down, on every page shown
 * (docs/benchmarks.md, "A page switch's CPU in every process").
 *
 * The viewer asks for a width step with `?w=`; the shell answers with the copy of that width where there is one and
 * with the page image otherwise (a page not much wider than the step, or rendered before copies were made). The
 * original stays what the engine reads, crops show and exports carry.
 */

/** Widths the copies are made at, in device pixels: a fitted page at 1× (768) and on a 2× screen (1536). */
export const SCREEN_IMAGE_WIDTHS = [768, 1536] as const;

export type ScreenImageWidth = (typeof SCREEN_IMAGE_WIDTHS)[number];

/**
 * A copy is made only where it saves most of the decode: the page at least this many times the copy's width
 * (a 1240-wide page gets the 768 copy, 2.6× fewer pixels, not the 1536 one).
 */
export const SCREEN_COPY_MIN_RATIO = 1.25;

/** The smallest step at least `devicePixels` wide, or null (the page image itself) when none is. */
export function screenImageWidthFor(devicePixels: number): ScreenImageWidth | null {
  if (!Number.isFinite(devicePixels) || devicePixels <= 0) return null;
  return SCREEN_IMAGE_WIDTHS.find((width) => width >= devicePixels) ?? null;
}

/** The steps worth a copy for a page image `pageWidth` pixels wide. */
export function screenCopyWidthsFor(pageWidth: number): ScreenImageWidth[] {
  return SCREEN_IMAGE_WIDTHS.filter((width) => pageWidth >= width * SCREEN_COPY_MIN_RATIO);
}

/** The page image URL asking for the `width` step (unchanged for null: the page image itself). */
export function withScreenImageWidth(url: string, width: ScreenImageWidth | null): string {
  if (width === null) return url;
  return `${url}${url.includes('?') ? '&' : '?'}w=${width}`;
}

/** A request's `w` parameter as a step; anything else (absent, another number, text) is null: the page image. */
export function parseScreenImageWidth(value: string | null): ScreenImageWidth | null {
  if (value === null || !/^\d{1,5}$/.test(value)) return null;
  const width = Number(value);
  return SCREEN_IMAGE_WIDTHS.find((step) => step === width) ?? null;
}
