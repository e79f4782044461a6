/**
 * The fields panel's width, set by dragging (or arrow keys on) the split between the editor and the panel, kept
 * across launches. Unset, the stylesheet's default applies (fields.css: a share of the window between a minimum
 * that fits the line-item table and a maximum). A double-click on the split returns to that default.
 */
import { useCallback, useEffect, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from 'react';

const storageKey = 'recto.fieldsWidth';
/** Narrower than this, the line-item table's four columns no longer fit their amounts. */
export const MIN_FIELDS_WIDTH = 280;
/** The panel never takes more than this share of the window (the page and the editor need the rest). */
const MAX_FIELDS_SHARE = 0.5;
/** One arrow key press on the split. */
const KEY_STEP = 24;

function clampWidth(width: number): number {
  return Math.round(Math.min(Math.max(width, MIN_FIELDS_WIDTH), Math.max(MIN_FIELDS_WIDTH, window.innerWidth * MAX_FIELDS_SHARE)));
}

function storedWidth(): number | null {
  try {
    const value = Number(localStorage.getItem(storageKey));
    return Number.isFinite(value) && value >= MIN_FIELDS_WIDTH ? value : null;
  } catch {
    return null;
  }
}

export function useFieldsWidth(panel: RefObject<HTMLElement | null>) {
  const [width, setWidth] = useState<number | null>(storedWidth);
  const drag = useRef<{ startX: number; startWidth: number } | null>(null);

  useEffect(() => {
    try {
      if (width === null) localStorage.removeItem(storageKey);
      else localStorage.setItem(storageKey, String(width));
    } catch {
      // Storage unavailable: the width lasts for this session only.
    }
  }, [width]);

  // The default width as laid out, for the separator's aria-valuenow: followed with a ResizeObserver, never read in a
  // render (a getBoundingClientRect there forces a layout of the whole screen on every page switch, ~5 ms of main thread).
  const [measured, setMeasured] = useState<number | null>(null);
  useEffect(() => {
    const element = panel.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => setMeasured(Math.round(entries[0]?.contentRect.width ?? 0) || null));
    observer.observe(element);
    return () => observer.disconnect();
  }, [panel]);
  const current = useCallback(() => width ?? panel.current?.getBoundingClientRect().width ?? MIN_FIELDS_WIDTH, [panel, width]);

  const splitter: ReactNode = (
    <div
      className="fields-splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the invoice fields (drag, or arrow keys; double-click for the default width)"
      aria-valuemin={MIN_FIELDS_WIDTH}
      aria-valuenow={Math.round(width ?? measured ?? MIN_FIELDS_WIDTH)}
      tabIndex={0}
      data-testid="fields-splitter"
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        drag.current = { startX: event.clientX, startWidth: current() };
      }}
      onPointerMove={(event) => {
        // The panel is on the right: dragging the split to the left widens it.
        if (drag.current) setWidth(clampWidth(drag.current.startWidth + drag.current.startX - event.clientX));
      }}
      onPointerUp={() => {
        drag.current = null;
      }}
      onDoubleClick={() => setWidth(null)}
      onKeyDown={(event) => {
        const delta = event.key === 'ArrowLeft' ? KEY_STEP : event.key === 'ArrowRight' ? -KEY_STEP : 0;
        if (delta === 0) return;
        event.preventDefault();
        setWidth(clampWidth(current() + delta));
      }}
    />
  );
  const gridStyle = (width === null ? {} : { '--fields-width': `${width}px` }) as CSSProperties;
  return { splitter, gridStyle };
}
