/**
 * How the combined curation scores are spread: ten bins over [0, 1], coloured by band, pages on the y axis. Only the
 * corrected pages have a score (it compares the engine with a correction); the others are counted beside the title.
 */
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
  const unscored = summary.pages - summary.correctedPages;
  const description =
    `${summary.correctedPages} scored pages (${unscored} not corrected yet, not counted); mean score ${summary.meanScore === null ? 'not available' : summary.meanScore.toFixed(2)}; ` +
    `${worst} below 0.5. ` +
    bins.map((bin) => `${binLabel(bin)}: ${bin.count}`).join(', ');
  return (
    <ChartFrame
      testId="chart-score-histogram"
      title="Score distribution"
      description={description}
      box={box}
      empty={summary.correctedPages === 0 ? 'No scored pages here.' : null}
      legend={
        <span data-testid="histogram-counts" data-scored={summary.correctedPages} data-unscored={unscored}>
          {summary.correctedPages} scored{unscored > 0 ? ` · ${unscored} not corrected yet, not counted` : ''}
        </span>
      }
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
