/**
 * The frame every curation chart shares: a figure with a heading, an SVG with an accessible title and description
 * (screen readers announce the chart's gist, not hundreds of rectangles), and axis helpers. Plain SVG, no library:
 * nothing here evaluates code, so the renderer's CSP stays strict.
 */
import { useId, type ReactNode } from 'react';

export interface ChartBox {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

/** The plotting area inside the margins. */
export function plotArea(box: ChartBox) {
  const { width, height, margin } = box;
  return { left: margin.left, right: width - margin.right, top: margin.top, bottom: height - margin.bottom };
}

interface ChartFrameProps {
  testId: string;
  title: string;
  /** One sentence with the numbers that matter, for the SVG's <desc>. */
  description: string;
  box: ChartBox;
  empty?: string | null;
  legend?: ReactNode;
  children: ReactNode;
}

export function ChartFrame({ testId, title, description, box, empty, legend, children }: ChartFrameProps) {
  const id = useId();
  return (
    <figure className="chart" data-testid={testId} data-empty={empty ? 'true' : 'false'}>
      <figcaption className="chart-title">
        <span>{title}</span>
        {legend && <span className="chart-legend">{legend}</span>}
      </figcaption>
      {empty ? (
        <div className="chart-empty">{empty}</div>
      ) : (
        <svg
          className="chart-svg"
          viewBox={`0 0 ${box.width} ${box.height}`}
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          preserveAspectRatio="xMidYMid meet"
        >
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{description}</desc>
          {children}
        </svg>
      )}
    </figure>
  );
}

interface AxisProps {
  box: ChartBox;
  ticks: readonly number[];
  position: (value: number) => number;
  format: (value: number) => string;
  label: string;
}

/** A horizontal value axis along the bottom, with gridlines up the plot. */
export function BottomAxis({ box, ticks, position, format, label, grid = false }: AxisProps & { grid?: boolean }) {
  const area = plotArea(box);
  return (
    <g className="chart-axis">
      <line x1={area.left} x2={area.right} y1={area.bottom} y2={area.bottom} className="chart-axis-line" />
      {ticks.map((tick) => (
        <g key={tick} transform={`translate(${position(tick)},${area.bottom})`}>
          {grid && <line y1={0} y2={area.top - area.bottom} className="chart-grid" />}
          <line y2={4} className="chart-axis-line" />
          <text y={14} textAnchor="middle" className="chart-tick">
            {format(tick)}
          </text>
        </g>
      ))}
      <text x={(area.left + area.right) / 2} y={box.height - 4} textAnchor="middle" className="chart-axis-label">
        {label}
      </text>
    </g>
  );
}

/** A vertical value axis on the left (or right), with gridlines across the plot. */
export function SideAxis({ box, ticks, position, format, label, side = 'left', grid = true }: AxisProps & { side?: 'left' | 'right'; grid?: boolean }) {
  const area = plotArea(box);
  const x = side === 'left' ? area.left : area.right;
  const outward = side === 'left' ? -1 : 1;
  const labelX = side === 'left' ? 10 : box.width - 6;
  return (
    <g className="chart-axis">
      <line x1={x} x2={x} y1={area.top} y2={area.bottom} className="chart-axis-line" />
      {ticks.map((tick) => (
        <g key={tick} transform={`translate(${x},${position(tick)})`}>
          {grid && <line x1={0} x2={(area.right - area.left) * -outward} className="chart-grid" />}
          <line x2={4 * outward} className="chart-axis-line" />
          <text x={7 * outward} dy="0.32em" textAnchor={side === 'left' ? 'end' : 'start'} className="chart-tick">
            {format(tick)}
          </text>
        </g>
      ))}
      <text
        transform={`translate(${labelX},${(area.top + area.bottom) / 2}) rotate(${side === 'left' ? -90 : 90})`}
        textAnchor="middle"
        className="chart-axis-label"
      >
        {label}
      </text>
    </g>
  );
}
