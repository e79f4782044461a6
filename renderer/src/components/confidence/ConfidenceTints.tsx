/**
 * Low-confidence words tinted on the page image: an SVG in the extraction's page pixels laid over the image (as the
 * element boxes are), not catching the mouse, so the boxes below stay clickable. Marks already looked at fade.
 */
import type { ConfidenceMark } from '../../logic/confidenceMarks.js';

interface ConfidenceTintsProps {
  marks: readonly ConfidenceMark[];
  visited: ReadonlySet<number>;
  boxSpace: { width: number; height: number };
}

export function ConfidenceTints({ marks, visited, boxSpace }: ConfidenceTintsProps) {
  if (marks.length === 0) return null;
  return (
    <svg className="confidence-tints" viewBox={`0 0 ${boxSpace.width} ${boxSpace.height}`} preserveAspectRatio="none" aria-hidden="true">
      {marks.map((mark, index) => {
        const [x1, y1, x2, y2] = mark.box;
        return (
          <rect
            key={index}
            className={visited.has(index) ? 'tint visited' : 'tint'}
            data-testid="confidence-tint"
            x={x1}
            y={y1}
            width={Math.max(1, x2 - x1)}
            height={Math.max(1, y2 - y1)}
          />
        );
      })}
    </svg>
  );
}
