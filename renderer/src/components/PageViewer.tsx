/**
 * The page image with its element boxes; zoom in/out, fit width (default), fit page and 100 %, and zoom to a box (an
 * invoice field's, asked for with `focusBox`): the page drawn so the box reads easily, scrolled to put it in the middle.
 */
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { Element } from '../../../app/model/extraction.js';
import { effectiveScale, formatScale, scaleForBox, scrollToCentre, zoomedIn, zoomedOut, type Zoom } from '../logic/zoom.js';
import { ElementOverlay } from './ElementOverlay.js';
import { shortcutOf } from '../logic/keymap.js';
import { isMac } from '../state/keyContext.js';
import { screenImageWidthFor, withScreenImageWidth, type ScreenImageWidth } from '../../../app/contract/screenImage.js';

interface PageViewerProps {
  imageUrl: string | null;
  /** Size of the page image in pixels (the page summary's size until the image has loaded). */
  pageWidth: number;
  pageHeight: number;
  /** The coordinate space of the boxes (the extraction's page size). */
  boxSpace: { width: number; height: number } | null;
  elements: readonly Element[];
  selectedId: string | null;
  hoveredId: string | null;
  followSelection: boolean;
  onHover(id: string | null): void;
  onSelect(id: string): void;
  title: string;
  /** Shown instead of the image when there is none (nothing selected, or still loading). */
  emptyText: string;
  onPrevious(): void;
  onNext(): void;
  /** More layers over the page image, in the same frame as the boxes (confidence tints). */
  layers?: ReactNode;
  /**
   * The screen copy width the viewer now asks for (null: the page image itself), whenever it changes — so the pages
   * asked for ahead are fetched at the same URL (PageDataCache.setScreenImageWidth).
   */
  onScreenImageWidth?(width: ScreenImageWidth | null): void;
  /** Zooms to this box ([x1, y1, x2, y2] in `boxSpace`) each time `serial` changes. */
  focusBox?: { box: readonly [number, number, number, number]; serial: number } | null;
}

/** Padding of the scroll pane on each side, in CSS pixels. */
const panePadding = 16;

export function PageViewer(props: PageViewerProps) {
  const { imageUrl, elements, boxSpace, title } = props;
  const pane = useRef<HTMLDivElement>(null);
  const [paneWidth, setPaneWidth] = useState(0);
  const [paneHeight, setPaneHeight] = useState(0);
  const [zoom, setZoom] = useState<Zoom>({ mode: 'fit' });
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const element = pane.current;
    if (!element) return;
    const measure = () => {
      setPaneWidth(element.clientWidth);
      setPaneHeight(element.clientHeight);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    measure();
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    setNatural(null);
    setFailed(false);
  }, [imageUrl]);

  // Ctrl/Cmd + wheel zooms the page (as in PDF viewers) instead of zooming the whole window. A native listener,
  // because React's wheel listeners are passive and cannot prevent the default.
  const scaleRef = useRef(1);
  useEffect(() => {
    const element = pane.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      setZoom(event.deltaY < 0 ? zoomedIn(scaleRef.current) : zoomedOut(scaleRef.current));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, []);

  const imageWidth = natural?.width ?? props.pageWidth;
  const imageHeight = natural?.height ?? props.pageHeight;
  const inner = { width: Math.max(0, paneWidth - 2 * panePadding), height: Math.max(0, paneHeight - 2 * panePadding) };
  const scale = effectiveScale(zoom, imageWidth, inner.width, imageHeight, inner.height);
  scaleRef.current = scale;
  const width = Math.max(1, Math.round(imageWidth * scale));
  const height = Math.max(1, Math.round(imageHeight * scale));
  // The copy for the drawn size in device pixels (not before the pane is measured: its first width is 0). Zoomed in
  // past the widest copy, the page image itself.
  const screenWidth = paneWidth > 0 ? screenImageWidthFor(width * (window.devicePixelRatio || 1)) : null;
  const shownUrl = imageUrl && withScreenImageWidth(imageUrl, screenWidth);
  const onScreenImageWidth = props.onScreenImageWidth;
  useEffect(() => {
    if (paneWidth > 0) onScreenImageWidth?.(screenWidth);
  }, [screenWidth, paneWidth, onScreenImageWidth]);

  // Zoom to the box asked for, then (once drawn at that scale) scroll it into the middle of the pane.
  const focus = props.focusBox;
  const [scrollTarget, setScrollTarget] = useState<{ left: number; top: number; scale: number } | null>(null);
  useEffect(() => {
    if (!focus || !boxSpace || inner.width <= 0) return;
    const toImage = imageWidth / boxSpace.width;
    const [x1, y1, x2, y2] = focus.box;
    const box = [x1 * toImage, y1 * toImage, x2 * toImage, y2 * toImage] as const;
    const target = scaleForBox(box, imageWidth, inner);
    setZoom({ mode: 'scale', scale: target });
    setScrollTarget({ ...scrollToCentre(box, target, inner), scale: target });
    // Only a new ask zooms: a resize or a new image afterwards keeps the zoom the analyst has.
  }, [focus?.serial]);
  useLayoutEffect(() => {
    if (!scrollTarget || scrollTarget.scale !== scale || !pane.current) return;
    pane.current.scrollTo({ left: scrollTarget.left, top: scrollTarget.top });
    setScrollTarget(null);
  }, [scrollTarget, scale]);

  return (
    <section className="viewer" aria-label="Page image">
      <div className="pane-toolbar">
        <div className="pane-title" title={title}>
          {title}
        </div>
        {imageUrl && (
          <>
            <div className="toolbar-group" role="group" aria-label="Page">
              <button className="icon-button" title={`Previous page (${shortcutOf('previous-page', isMac)})`} onClick={props.onPrevious}>
                ‹
              </button>
              <button className="icon-button" title={`Next page (${shortcutOf('next-page', isMac)})`} onClick={props.onNext}>
                ›
              </button>
            </div>
            <div className="toolbar-group" role="group" aria-label="Zoom">
              <button className="icon-button" title="Zoom out (Ctrl+wheel)" onClick={() => setZoom(zoomedOut(scale))}>
                −
              </button>
              <span className="zoom-level" data-testid="zoom-level">
                {formatScale(scale)}
              </span>
              <button className="icon-button" title="Zoom in (Ctrl+wheel)" onClick={() => setZoom(zoomedIn(scale))}>
                +
              </button>
              <button
                className={zoom.mode === 'fit' ? 'text-button active' : 'text-button'}
                onClick={() => setZoom({ mode: 'fit' })}
              >
                Fit width
              </button>
              <button
                className={zoom.mode === 'fit-page' ? 'text-button active' : 'text-button'}
                title="The whole page in view"
                onClick={() => setZoom({ mode: 'fit-page' })}
              >
                Fit page
              </button>
              <button
                className={zoom.mode === 'scale' && zoom.scale === 1 ? 'text-button active' : 'text-button'}
                onClick={() => setZoom({ mode: 'scale', scale: 1 })}
              >
                100 %
              </button>
            </div>
          </>
        )}
      </div>
      <div className="viewer-scroll" ref={pane}>
        {imageUrl ? (
          <div className="page-frame" style={{ width, height }}>
            <img
              src={shownUrl!}
              alt={title}
              data-testid="page-image"
              draggable={false}
              width={width}
              height={height}
              onLoad={(event) => {
                // A copy's pixels are not the page's: the page's size (the summary's) stays the one zoom is computed on.
                if (screenWidth === null) setNatural({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight });
              }}
              onError={() => setFailed(true)}
            />
            {boxSpace && !failed && (
              <ElementOverlay
                elements={elements}
                pageWidth={boxSpace.width}
                pageHeight={boxSpace.height}
                selectedId={props.selectedId}
                hoveredId={props.hoveredId}
                followSelection={props.followSelection}
                onHover={props.onHover}
                onSelect={props.onSelect}
              />
            )}
            {!failed && props.layers}
            {failed && <div className="image-error">The page image could not be loaded.</div>}
          </div>
        ) : (
          <div className="viewer-empty">{props.emptyText}</div>
        )}
      </div>
    </section>
  );
}
