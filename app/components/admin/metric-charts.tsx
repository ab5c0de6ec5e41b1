import { useId } from "react";

/**
 * Charts of /admin/metricas drawn as inline SVG on the server (issue 11; decision 0052-business-metrics):
 * no chart library, nothing added to any page's JavaScript. Each chart is a picture (`role="img"`)
 * with a title and a one-sentence description; the exact figures are in the table beside it. The
 * SVG scales to its box (viewBox, width 100%), so it never overflows a 360 px screen.
 */

export interface ChartSeries {
  name: string;
  /** Tailwind fill/stroke colour classes, e.g. "fill-brand-600" / "stroke-brand-600". */
  fill: string;
  stroke: string;
  /** The swatch in the legend. */
  swatch: string;
}

export interface ChartPoint {
  label: string;
  values: number[];
}

const WIDTH = 480;
const HEIGHT = 220;
const PAD = { top: 16, right: 8, bottom: 28, left: 8 };
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

function Legend({ series }: { series: ChartSeries[] }) {
  if (series.length < 2) return null;
  return (
    <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700" aria-hidden="true">
      {series.map((item) => (
        <li key={item.name} className="flex items-center gap-1.5">
          <span className={`inline-block size-3 rounded-sm ${item.swatch}`} />
          {item.name}
        </li>
      ))}
    </ul>
  );
}

/** The x-axis labels worth printing: the first, the last and a few evenly between (a month of days would not fit). */
function labelIndexes(count: number, most = 5): Set<number> {
  if (count <= most) return new Set(Array.from({ length: count }, (_, index) => index));
  const step = (count - 1) / (most - 1);
  return new Set(Array.from({ length: most }, (_, index) => Math.round(index * step)));
}

function Frame({
  title,
  description,
  maxLabel,
  minLabel,
  children,
}: {
  title: string;
  description: string;
  maxLabel: string;
  minLabel?: string;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="block h-auto w-full max-w-full" role="img" aria-labelledby={`${id}-t ${id}-d`}>
      <title id={`${id}-t`}>{title}</title>
      <desc id={`${id}-d`}>{description}</desc>
      <text x={PAD.left} y={11} className="fill-slate-600 text-[13px]">
        {maxLabel}
      </text>
      {minLabel ? (
        <text x={PAD.left} y={HEIGHT - PAD.bottom - 4} className="fill-slate-600 text-[13px]">
          {minLabel}
        </text>
      ) : null}
      {children}
    </svg>
  );
}

/**
 * Vertical bars, stacked when there are several series. Negative values (a day whose refunds exceed
 * its sales) go below the zero line.
 */
export function BarChart({
  title,
  description,
  points,
  series,
  format,
}: {
  title: string;
  description: string;
  points: ChartPoint[];
  series: ChartSeries[];
  format: (value: number) => string;
}) {
  const highs = points.map((point) => point.values.reduce((sum, value) => sum + Math.max(value, 0), 0));
  const lows = points.map((point) => point.values.reduce((sum, value) => sum + Math.min(value, 0), 0));
  const max = Math.max(0, ...highs);
  const min = Math.min(0, ...lows);
  const span = max - min || 1;
  const y = (value: number) => PAD.top + ((max - value) / span) * PLOT_H;
  const slot = PLOT_W / Math.max(points.length, 1);
  const barWidth = Math.max(1, slot * 0.7);
  const labels = labelIndexes(points.length);
  return (
    <>
      <Frame title={title} description={description} maxLabel={`Máx. ${format(max)}`} minLabel={min < 0 ? `Mín. ${format(min)}` : undefined}>
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} className="stroke-slate-300" strokeWidth={1} />
        {points.map((point, index) => {
          const x = PAD.left + index * slot + (slot - barWidth) / 2;
          let up = 0;
          let down = 0;
          return (
            <g key={point.label}>
              {point.values.map((value, seriesIndex) => {
                if (value === 0) return null;
                const from = value > 0 ? up : down;
                const to = from + value;
                if (value > 0) up = to;
                else down = to;
                return (
                  <rect
                    key={series[seriesIndex]!.name}
                    x={x}
                    width={barWidth}
                    y={Math.min(y(from), y(to))}
                    height={Math.max(1, Math.abs(y(from) - y(to)))}
                    className={series[seriesIndex]!.fill}
                  />
                );
              })}
              {labels.has(index) ? (
                <text
                  x={index === 0 ? x : index === points.length - 1 ? x + barWidth : x + barWidth / 2}
                  y={HEIGHT - 8}
                  textAnchor={index === 0 ? "start" : index === points.length - 1 ? "end" : "middle"}
                  className="fill-slate-600 text-[13px]"
                >
                  {point.label}
                </text>
              ) : null}
            </g>
          );
        })}
      </Frame>
      <Legend series={series} />
    </>
  );
}

/** One line per series over the points (days or weeks). */
export function LineChart({
  title,
  description,
  points,
  series,
  format,
}: {
  title: string;
  description: string;
  points: ChartPoint[];
  series: ChartSeries[];
  format: (value: number) => string;
}) {
  const max = Math.max(1, ...points.flatMap((point) => point.values));
  const x = (index: number) => PAD.left + (points.length > 1 ? (index / (points.length - 1)) * PLOT_W : PLOT_W / 2);
  const y = (value: number) => PAD.top + (1 - value / max) * PLOT_H;
  const labels = labelIndexes(points.length);
  return (
    <>
      <Frame title={title} description={description} maxLabel={`Máx. ${format(max)}`}>
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} className="stroke-slate-300" strokeWidth={1} />
        {series.map((item, seriesIndex) => (
          <polyline
            key={item.name}
            fill="none"
            strokeWidth={2.5}
            strokeLinejoin="round"
            className={item.stroke}
            points={points.map((point, index) => `${x(index).toFixed(1)},${y(point.values[seriesIndex] ?? 0).toFixed(1)}`).join(" ")}
          />
        ))}
        {points.map((point, index) =>
          labels.has(index) ? (
            <text
              key={point.label}
              x={x(index)}
              y={HEIGHT - 8}
              textAnchor={index === 0 ? "start" : index === points.length - 1 ? "end" : "middle"}
              className="fill-slate-600 text-[13px]"
            >
              {point.label}
            </text>
          ) : null,
        )}
      </Frame>
      <Legend series={series} />
    </>
  );
}

/** Horizontal bars, one per row (districts): the label above its bar, so long names never squeeze the chart. */
export function HorizontalBars({ rows, format, label }: { rows: { name: string; value: number }[]; format: (value: number) => string; label: string }) {
  const max = Math.max(1, ...rows.map((row) => row.value));
  return (
    <ul className="space-y-2" aria-label={label}>
      {rows.map((row) => (
        <li key={row.name} className="text-sm">
          <div className="flex justify-between gap-2">
            <span className="min-w-0 break-words text-slate-800">{row.name}</span>
            <span className="shrink-0 font-semibold tabular-nums text-slate-900">{format(row.value)}</span>
          </div>
          {/* An SVG bar, not a styled div: the Content-Security-Policy refuses inline style attributes. */}
          <svg viewBox="0 0 100 10" preserveAspectRatio="none" className="mt-1 block h-2.5 w-full" aria-hidden="true">
            <rect width={100} height={10} rx={5} className="fill-slate-100" />
            <rect width={(row.value / max) * 100} height={10} rx={5} className="fill-brand-600" />
          </svg>
        </li>
      ))}
    </ul>
  );
}
