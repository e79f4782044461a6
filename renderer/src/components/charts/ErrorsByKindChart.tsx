/**
 * Which element kinds analysts corrected most: one horizontal bar per kind, the share of that kind's characters
 * changed; the label adds how many of the pages with that kind were changed.
 */
import type { CurationSummary } from '../../../../app/contract/curation.js';
import { formatPercent, linearScale, niceTicks } from '../../logic/charts/scale.js';
import { BottomAxis, ChartFrame, plotArea, type ChartBox } from './ChartFrame.js';

const rowHeight = 20;

export function ErrorsByKindChart({ summary }: { summary: CurationSummary }) {
  const kinds = [...summary.errorsByKind].sort((a, b) => b.changeRate - a.changeRate || a.kind.localeCompare(b.kind));
  const box: ChartBox = {
    width: 360,
    height: Math.max(120, 12 + 40 + kinds.length * rowHeight),
    margin: { top: 12, right: 92, bottom: 40, left: 72 },
  };
  const area = plotArea(box);
  const maxRate = Math.max(0.01, ...kinds.map((kind) => kind.changeRate));
  const ticks = niceTicks(0, maxRate, 4);
  const x = linearScale([0, ticks[ticks.length - 1]!], [area.left, area.right]);
  const description = kinds
    .map((kind) => `${kind.kind}: ${formatPercent(kind.changeRate)} of characters changed on ${kind.pagesChanged} of ${kind.pages} pages`)
    .join('; ');
  return (
    <ChartFrame
      testId="chart-errors-by-kind"
      title="Errors by element kind"
      description={description || 'No elements yet.'}
      box={box}
      empty={kinds.length === 0 ? 'No elements on these pages.' : null}
    >
      <BottomAxis box={box} ticks={ticks} position={x} format={formatPercent} label="Characters changed ÷ characters read" grid />
      {kinds.map((kind, index) => {
        const top = area.top + index * rowHeight;
        const width = Math.max(kind.changeRate > 0 ? 1.5 : 0, x(kind.changeRate) - area.left);
        return (
          <g key={kind.kind} className="chart-row" data-kind={kind.kind} data-change-rate={kind.changeRate}>
            <text x={area.left - 6} y={top + rowHeight / 2} dy="0.32em" textAnchor="end" className="chart-tick">
              {kind.kind}
            </text>
            <rect x={area.left} y={top + 3} width={width} height={rowHeight - 6} className="chart-bar band-kind">
              <title>{`${kind.kind}: ${kind.changedChars} of ${kind.chars} characters changed; ${kind.pagesChanged} of ${kind.pages} pages; ${kind.elements} elements`}</title>
            </rect>
            <text x={area.left + width + 4} y={top + rowHeight / 2} dy="0.32em" className="chart-value">
              {`${formatPercent(kind.changeRate)} · ${kind.pagesChanged}/${kind.pages} pp.`}
            </text>
          </g>
        );
      })}
    </ChartFrame>
  );
}
