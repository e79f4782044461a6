/**
 * Element boxes drawn over the page image. The SVG's viewBox is the extraction's page size in pixels, so boxes
 * scale with the image whatever its zoom (and whatever resolution the served image has).
 */
import { memo, useEffect, useRef } from 'react';
import type { Element } from '../../../app/model/extraction.js';

interface ElementOverlayProps {
  elements: readonly Element[];
  pageWidth: number;
  pageHeight: number;
  selectedId: string | null;
  hoveredId: string | null;
  /** Scroll the selected box into view (when the selection came from the editor's cursor). */
  followSelection: boolean;
  onHover(id: string | null): void;
  onSelect(id: string): void;
}

/** Memoised: the page viewer renders again when its image loads or the fields change; the boxes only when theirs do. */
export const ElementOverlay = memo(function ElementOverlay(props: ElementOverlayProps) {
  const { elements, pageWidth, pageHeight, selectedId, hoveredId, followSelection, onHover, onSelect } = props;
  const svg = useRef<SVGSVGElement>(null);

  useEffect(() => {
    if (!followSelection || !selectedId || !svg.current) return;
    const box = svg.current.querySelector(`[data-element-id="${CSS.escape(selectedId)}"]`);
    box?.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'smooth' });
  }, [followSelection, selectedId]);

  return (
    <svg
      ref={svg}
      className="overlay"
      viewBox={`0 0 ${pageWidth} ${pageHeight}`}
      preserveAspectRatio="none"
      onMouseLeave={() => onHover(null)}
    >
      {elements.map((element) => {
        const [x1, y1, x2, y2] = element.box;
        const classes = ['box', `kind-${element.kind}`];
        if (element.id === selectedId) classes.push('selected');
        if (element.id === hoveredId) classes.push('hovered');
        return (
          <rect
            key={element.id}
            data-element-id={element.id}
            className={classes.join(' ')}
            x={x1}
            y={y1}
            width={Math.max(1, x2 - x1)}
            height={Math.max(1, y2 - y1)}
            vectorEffect="non-scaling-stroke"
            onMouseEnter={() => onHover(element.id)}
            onClick={() => onSelect(element.id)}
          >
            <title>
              {element.kind}
              {element.confidence !== null ? ` · confidence ${Math.round(element.confidence * 100)} %` : ''}
            </title>
          </rect>
        );
      })}
    </svg>
  );
});
