/**
 * The boxes of the invoice fields over the page image: every field the engine located, coloured by confidence, the
 * selected ones filled (and scrolled into view). A box shows which field it carries and selects it when clicked.
 * Same coordinate system as ElementOverlay: the viewBox is the extraction's page size.
 */
import { useEffect, useRef } from 'react';
import { labelOf, type FieldSourceView } from '../../../../app/invoice/review/index.js';
import { confidenceBand } from '../../logic/fields/fieldEditing.js';

interface FieldBoxesOverlayProps {
  sources: Record<string, FieldSourceView>;
  pageWidth: number;
  pageHeight: number;
  selected: ReadonlySet<string>;
  /** Changes whenever a selection should scroll its box into view. */
  revealSerial: number;
  onSelect(path: string): void;
}

export function FieldBoxesOverlay({ sources, pageWidth, pageHeight, selected, revealSerial, onSelect }: FieldBoxesOverlayProps) {
  const svg = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (revealSerial === 0 || !svg.current) return;
    svg.current.querySelector('.field-box.selected')?.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'smooth' });
  }, [revealSerial]);

  // Line descriptions carry the whole line's boxes: drawn only when selected, so they do not hide the cells.
  const entries = Object.entries(sources).filter(([path]) => !path.endsWith('.description') || selected.has(path));
  return (
    <svg ref={svg} className="overlay field-overlay" viewBox={`0 0 ${pageWidth} ${pageHeight}`} preserveAspectRatio="none" data-testid="field-overlay">
      {entries.flatMap(([path, source]) =>
        source.boxes.map((box, i) => {
          const [x1, y1, x2, y2] = box;
          const classes = ['field-box', `conf-${confidenceBand(source.confidence)}`];
          if (selected.has(path)) classes.push('selected');
          return (
            <rect
              key={`${path}#${i}`}
              className={classes.join(' ')}
              data-field-box={path}
              x={x1}
              y={y1}
              width={Math.max(1, x2 - x1)}
              height={Math.max(1, y2 - y1)}
              vectorEffect="non-scaling-stroke"
              onClick={(event) => {
                event.stopPropagation();
                onSelect(path);
              }}
            >
              <title>{`${labelOf(path)}: ${source.text}`}</title>
            </rect>
          );
        }),
      )}
    </svg>
  );
}
