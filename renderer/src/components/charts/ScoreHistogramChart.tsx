/** How the combined curation scores are spread: ten bins over [0, 1], coloured by band, pages on the y axis. */
import type { CurationSummary } from '../../../../app/contract/curation.js';
import { binLabel, completeHistogram } from '../../logic/charts/histogram.js';
import { linearScale, niceTicks } from '../../logic/charts/scale.js';
import { scoreBand } from '../../logic/curation/checkColumns.js';
import { BottomAxis, ChartFrame, SideAxis, plotArea, type ChartBox } from './ChartFrame.js';

const box: ChartBox = { width: 360, height: 200, margin: { top: 18, right: 12, bottom: 40, left: 44 } };

export function ScoreHistogramChart({ summary }: { summary: CurationSummary }) {
  const bins = completeHistogram(summary.scoreHistogram);
  const area = plotArea(box);
  const maxCount = Math.max(0, ...bins.map((bin) => bin.count));
  const countTicks = niceTicks(0, maxCount, 5, true);
  const x = linearScale([0, 1], [area.left, area.right]);
  const y = linearScale([0, countTicks[countTicks.length - 1]!], [area.bottom, area.top]);
  const worst = bins.filter((bin) => bin.from < 0.5).reduce((sum, bin) => sum + bin.count, 0);
  const description =
    `${summary.pages} pages; mean score ${summary.meanScore === null ? 'not available' : summary.meanScore.toFixed(2)}; ` +
    `${worst} below 0.5. ` +
    bins.map((bin) => `${binLabel(bin)}: ${bin.count}`).join(', ');
  return (
    <ChartFrame
      testId="chart-score-histogram"
      title="Score distribution"
      description={description}
      box={box}
      empty={summary.pages === 0 ? 'No scored pages here.' : null}
    >
      <SideAxis box={box} ticks={countTicks} position={y} format={String} label="Pages" />
      <g className="chart-bars">
        {bins.map((bin) => {
          const left = x(bin.from) + 1;
          const width = Math.max(0, x(bin.to) - x(bin.from) - 2);
          const top = y(bin.count);
          return (
            <rect
              key={bin.from}
              x={left}
              y={top}
              width={width}
              height={Math.max(0, area.bottom - top)}
              className={`chart-bar band-${scoreBand(bin.from + 0.05)}`}
              data-count={bin.count}
            >
              <title>{`Score ${binLabel(bin)}: ${bin.count} ${bin.count === 1 ? 'page' : 'pages'}`}</title>
            </rect>
          );
        })}
      </g>
      <g className="chart-bar-labels">
        {bins.map((bin) =>
          bin.count > 0 ? (
            <text key={bin.from} x={(x(bin.from) + x(bin.to)) / 2} y={y(bin.count) - 3} textAnchor="middle" className="chart-value">
              {bin.count}
            </text>
          ) : null,
        )}
      </g>
      <BottomAxis box={box} ticks={niceTicks(0, 1, 6)} position={x} format={(value) => value.toFixed(1)} label="Combined score (1 = engine was right)" />
    </ChartFrame>
  );
}
