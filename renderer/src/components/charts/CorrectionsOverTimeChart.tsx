/**
 * Corrections per day (area, left axis) and the mean score of the pages corrected that day (line, right axis).
 * Idle days are filled in so the x axis is real time.
 */
import type { CurationSummary } from '../../../../app/contract/curation.js';
import { linearScale, niceTicks } from '../../logic/charts/scale.js';
import { fillDays, formatDay } from '../../logic/charts/timeSeries.js';
import { BottomAxis, ChartFrame, SideAxis, plotArea, type ChartBox } from './ChartFrame.js';

const box: ChartBox = { width: 360, height: 200, margin: { top: 12, right: 44, bottom: 40, left: 44 } };

export function CorrectionsOverTimeChart({ summary }: { summary: CurationSummary }) {
  const days = fillDays(summary.correctionsOverTime);
  const area = plotArea(box);
  const maxPages = Math.max(0, ...days.map((day) => day.pages));
  const pageTicks = niceTicks(0, maxPages, 5, true);
  // A single day sits in the middle; more spread across the plot.
  const x = days.length === 1 ? () => (area.left + area.right) / 2 : linearScale([0, days.length - 1], [area.left + 8, area.right - 8]);
  const y = linearScale([0, pageTicks[pageTicks.length - 1]!], [area.bottom, area.top]);
  const yScore = linearScale([0, 1], [area.bottom, area.top]);
  const points = days.map((day, index) => ({ ...day, x: x(index), y: y(day.pages) }));

  const line = points.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(' ');
  const areaPath =
    points.length > 1 ? `${line} L${points[points.length - 1]!.x.toFixed(1)},${area.bottom} L${points[0]!.x.toFixed(1)},${area.bottom} Z` : '';
  const scored = points.filter((point) => point.meanScore !== null);
  const scoreLine = scored.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x.toFixed(1)},${yScore(point.meanScore!).toFixed(1)}`).join(' ');

  // At most six day labels, evenly spaced, always the first and the last.
  const labelEvery = Math.max(1, Math.ceil(days.length / 6));
  const labelled = days.map((_, index) => index).filter((index) => index % labelEvery === 0 || index === days.length - 1);
  const total = days.reduce((sum, day) => sum + day.pages, 0);
  const description =
    days.length === 0
      ? 'No corrections yet.'
      : `${total} corrected pages from ${days[0]!.day} to ${days[days.length - 1]!.day}. ` +
        days.filter((day) => day.pages > 0).map((day) => `${day.day}: ${day.pages} pages, mean score ${day.meanScore?.toFixed(2)}`).join('; ');

  return (
    <ChartFrame
      testId="chart-corrections-over-time"
      title="Corrections over time"
      description={description}
      box={box}
      empty={days.length === 0 ? 'No corrections yet. Correct a page in Review and it shows up here.' : null}
      legend={
        <>
          <span className="legend-swatch pages" /> pages corrected <span className="legend-swatch score" /> mean score
        </>
      }
    >
      <SideAxis box={box} ticks={pageTicks} position={y} format={String} label="Pages corrected" />
      <SideAxis box={box} ticks={[0, 0.5, 1]} position={yScore} format={(value) => value.toFixed(1)} label="Mean score" side="right" grid={false} />
      {areaPath && <path d={areaPath} className="chart-area" />}
      {points.length > 1 && <path d={line} className="chart-line" />}
      {points.length === 1 && (
        <rect x={points[0]!.x - 10} y={points[0]!.y} width={20} height={area.bottom - points[0]!.y} className="chart-area" />
      )}
      {scored.length > 1 && <path d={scoreLine} className="chart-line score" />}
      {points.map((point) => (
        <g key={point.day}>
          {point.pages > 0 && (
            <circle cx={point.x} cy={point.y} r={3} className="chart-dot">
              <title>{`${point.day}: ${point.pages} ${point.pages === 1 ? 'page' : 'pages'} corrected`}</title>
            </circle>
          )}
          {point.meanScore !== null && (
            <circle cx={point.x} cy={yScore(point.meanScore)} r={3} className="chart-dot score">
              <title>{`${point.day}: mean score ${point.meanScore.toFixed(2)}`}</title>
            </circle>
          )}
        </g>
      ))}
      <BottomAxis
        box={box}
        ticks={labelled}
        position={(index) => x(index)}
        format={(index) => formatDay(days[index]!.day)}
        label="Day of the latest correction (UTC)"
      />
    </ChartFrame>
  );
}
