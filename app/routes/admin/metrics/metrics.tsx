import { data, Form } from "react-router";
import type { Route } from "./+types/metrics";
import { businessMetrics, type BusinessMetrics, type MetricsTable } from "@server/metrics/index.server";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { BarChart, HorizontalBars, LineChart, type ChartSeries } from "~/components/admin/metric-charts";
import { ScrollRegion } from "~/components/ui/scroll-region";
import { dbContext } from "~/server/db-context.server";
import { formatLimaDate } from "@core/lima-dates";
import { parseMetricsRange, type MetricsRange } from "@core/metrics-range";
import { formatSoles } from "@core/money";
import { allowStaffPage } from "~/server/staff.server";

/**
 * /admin/metricas (issue 11): the business's numbers for a range of Lima dates. Admin only
 * (decision 0052-business-metrics): revenue, MRR and churn are the owner's figures; operaciones
 * runs the day from Despacho and Pedidos.
 */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/metricas")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const parsed = parseMetricsRange(new URL(request.url).searchParams, new Date());
  if (!parsed.ok) return data({ raw: parsed.raw, errors: parsed.errors, metrics: null }, { status: 400 });
  return { raw: parsed.raw, errors: {}, metrics: await businessMetrics(context.get(dbContext), parsed.range) };
}

export const meta: Route.MetaFunction = () => [{ title: "Métricas · Back office" }, { name: "robots", content: "noindex,nofollow" }];

const shortDate = (date: string) => formatLimaDate(date, { day: "numeric", month: "short" });
const longDate = (date: string) => formatLimaDate(date, { day: "numeric", month: "long", year: "numeric" });
const percent = (rate: number | null) => (rate === null ? "—" : `${(rate * 100).toLocaleString("es-PE", { maximumFractionDigits: 1 })} %`);
const count = (value: number) => value.toLocaleString("es-PE");
const planLabels = { mensual: "Mensual", anual: "Anual" } as const;

const REVENUE_SERIES: ChartSeries[] = [
  { name: "Compras únicas", fill: "fill-brand-600", stroke: "stroke-brand-600", swatch: "bg-brand-600" },
  { name: "Suscripciones", fill: "fill-amber-500", stroke: "stroke-amber-500", swatch: "bg-amber-500" },
];
const ACTIVITY_SERIES: ChartSeries[] = [
  { name: "Pedidos pagados", fill: "fill-brand-700", stroke: "stroke-brand-700", swatch: "bg-brand-700" },
  { name: "Entregas realizadas", fill: "fill-amber-600", stroke: "stroke-amber-600", swatch: "bg-amber-600" },
];
const PLAN_SERIES: ChartSeries[] = [
  { name: "Mensual", fill: "fill-brand-700", stroke: "stroke-brand-700", swatch: "bg-brand-700" },
  { name: "Anual", fill: "fill-amber-500", stroke: "stroke-amber-500", swatch: "bg-amber-500" },
];
const WEEK_SERIES: ChartSeries[] = [
  { name: "Nuevas", fill: "fill-emerald-600", stroke: "stroke-emerald-600", swatch: "bg-emerald-600" },
  { name: "Canceladas", fill: "fill-red-600", stroke: "stroke-red-600", swatch: "bg-red-600" },
];

const fieldClass = "mt-1 block w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 aria-[invalid=true]:border-red-600";
const cardClass = "rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100";
const thClass = "px-3 py-2 text-left font-semibold";
const tdClass = "px-3 py-1.5 tabular-nums";

function csvHref(table: MetricsTable, range: MetricsRange): string {
  return `/admin/metricas/exportar?${new URLSearchParams({ tabla: table, desde: range.from, hasta: range.to })}`;
}

function CsvLink({ table, range, label }: { table: MetricsTable; range: MetricsRange; label: string }) {
  return (
    <a href={csvHref(table, range)} download className="text-sm font-semibold text-brand-800 underline underline-offset-2 hover:text-brand-900">
      Descargar CSV<span className="sr-only"> de {label}</span>
    </a>
  );
}

function Section({ title, help, children, actions }: { title: string; help: string; children: React.ReactNode; actions?: React.ReactNode }) {
  const id = title.toLowerCase().replace(/[^a-z]+/g, "-");
  return (
    <section aria-labelledby={id} className={`${cardClass} min-w-0`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className="text-lg font-bold text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      <p className="mt-1 mb-3 text-sm text-slate-600">{help}</p>
      {children}
    </section>
  );
}

function RangeForm({ raw, errors }: { raw: { desde: string; hasta: string }; errors: { desde?: string; hasta?: string } }) {
  const field = (name: "desde" | "hasta", label: string) => (
    <div className="min-w-0">
      <label htmlFor={`rango-${name}`} className="block text-sm font-semibold text-slate-700">
        {label}
      </label>
      <input
        id={`rango-${name}`}
        name={name}
        type="date"
        defaultValue={raw[name]}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `rango-${name}-error` : undefined}
        className={fieldClass}
      />
      {errors[name] ? (
        <p id={`rango-${name}-error`} className="mt-1 text-sm font-semibold text-red-700">
          {errors[name]}
        </p>
      ) : null}
    </div>
  );
  return (
    <Form method="get" key={`${raw.desde}|${raw.hasta}`} className={`${cardClass} mb-6 grid items-end gap-3 sm:grid-cols-[1fr_1fr_auto]`}>
      {field("desde", "Desde")}
      {field("hasta", "Hasta")}
      <button type="submit" className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">
        Ver métricas
      </button>
      <p className="text-sm text-slate-600 sm:col-span-3">Fechas de Lima, ambas incluidas; hasta 366 días. Sin fechas: los últimos 30 días.</p>
    </Form>
  );
}

function Figures({ metrics }: { metrics: BusinessMetrics }) {
  const { totals, churn, recovery, bidones } = metrics;
  const figures: { label: string; value: string; help: string }[] = [
    {
      label: "Ingresos netos",
      value: formatSoles(totals.netCents),
      help: `Pedidos pagados en el rango (${formatSoles(totals.grossCents)}) menos lo reembolsado de pedidos (${formatSoles(totals.refundedCents)}), por la fecha del pago o del reembolso.`,
    },
    { label: "Pedidos pagados", value: count(totals.orders), help: "Pedidos con pago confirmado en el rango, de compra única y de suscripción." },
    {
      label: "Ticket promedio",
      value: totals.averageOrderCents === null ? "—" : formatSoles(totals.averageOrderCents),
      help: "Total pagado de esos pedidos dividido entre su número, antes de reembolsos.",
    },
    {
      label: "Cobrado en la puerta",
      value: formatSoles(metrics.atDoor.cashCents + metrics.atDoor.yapeCents),
      help: `Lo que los repartidores cobraron al entregar (contra entrega y códigos pagados al repartidor) en el rango: ${count(metrics.atDoor.orders)} pedidos, ${formatSoles(metrics.atDoor.cashCents)} en efectivo y ${formatSoles(metrics.atDoor.yapeCents)} por Yape. Ya está dentro de los ingresos.`,
    },
    { label: "Entregas realizadas", value: count(totals.deliveries), help: "Entregas marcadas como entregadas, por su fecha de entrega." },
    {
      label: "MRR",
      value: formatSoles(metrics.mrrCents),
      help: `Ingreso mensual recurrente al cierre del ${longDate(metrics.range.to)}: el cobro por periodo de cada suscripción activa ese día; las anuales, divididas entre 12.`,
    },
    {
      label: "Tasa de cancelación",
      value: percent(churn.rate),
      help: `De ${count(churn.subscribersAtStart)} suscripciones vigentes al inicio del rango, ${count(churn.cancelled)} se cancelaron en él.`,
    },
    {
      label: "Recuperación de cobros fallidos",
      value: percent(recovery.rate),
      help: `Renovaciones con tarjeta del rango cuyo cobro falló (${count(recovery.failed)}) y que se cobraron en los reintentos automáticos (${count(recovery.recovered)}).`,
    },
    {
      label: "Bidones por devolver",
      value: count(bidones.outstanding),
      help: `Bidones llenos dejados menos vacíos recogidos hasta el final del rango; ${count(bidones.customers)} clientes tienen alguno.`,
    },
    {
      label: "Garantías en depósito",
      value: formatSoles(metrics.garantias.cents),
      help: `Garantías de bidón cobradas y entregadas menos las devueltas, al final del rango: ${count(metrics.garantias.units)} bidones de ${count(metrics.garantias.customers)} clientes. Además hay ${formatSoles(metrics.garantias.chargedNotDeliveredCents)} cobrados en pedidos aún por entregar. No cuentan como ingresos.`,
    },
  ];
  return (
    <section aria-labelledby="resumen" className="mb-6">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="resumen" className="text-lg font-bold text-slate-900">
          Resumen del {longDate(metrics.range.from)} al {longDate(metrics.range.to)}
        </h2>
        <CsvLink table="resumen" range={metrics.range} label="el resumen" />
      </div>
      <dl className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {figures.map((figure) => (
          <div key={figure.label} className={`${cardClass} min-w-0`}>
            <dt className="text-sm font-semibold text-slate-600">{figure.label}</dt>
            <dd className="mt-1 text-2xl font-bold tabular-nums text-slate-900">{figure.value}</dd>
            <dd className="mt-1 text-xs text-slate-600">{figure.help}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * A table from a tablet up; on a phone the same rows as short lists of "label: value", since seven
 * columns of amounts cannot fit 360 px and a sideways-scrolling table is one nobody finds there.
 */
function DataTable({ label, head, rows }: { label: string; head: string[]; rows: string[][] }) {
  return (
    <>
      <ScrollRegion label={label} className="hidden rounded-xl ring-1 ring-slate-100 sm:block">
        <table className="w-full text-sm">
          <caption className="sr-only">{label}</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              {head.map((cell, index) => (
                <th key={cell} scope="col" className={`${thClass} ${index > 0 ? "text-right" : ""}`}>
                  {cell}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={row[0]}>
                {row.map((cell, index) =>
                  index === 0 ? (
                    <th key={index} scope="row" className={`${tdClass} text-left font-normal`}>
                      {cell}
                    </th>
                  ) : (
                    <td key={index} className={`${tdClass} text-right`}>
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <ul aria-label={label} className="divide-y divide-slate-100 rounded-xl text-sm ring-1 ring-slate-100 sm:hidden">
        {rows.map((row) => (
          <li key={row[0]} className="px-3 py-2">
            <p className="font-semibold text-slate-900">{row[0]}</p>
            <dl className="grid grid-cols-[1fr_auto] gap-x-3">
              {row.slice(1).map((cell, index) =>
                cell ? (
                  <div key={head[index + 1]} className="contents">
                    <dt className="text-slate-600">{head[index + 1]}</dt>
                    <dd className="text-right tabular-nums text-slate-900">{cell}</dd>
                  </div>
                ) : null,
              )}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

function Details({ summary, children }: { summary: string; children: React.ReactNode }) {
  return (
    <details className="mt-3">
      <summary className="cursor-pointer text-sm font-semibold text-brand-800">{summary}</summary>
      <div className="mt-2">{children}</div>
    </details>
  );
}

export default function AdminMetrics({ loaderData }: Route.ComponentProps) {
  const { raw, errors, metrics } = loaderData;
  return (
    <>
      <AdminPageHeader title="Métricas" />
      <RangeForm raw={raw} errors={errors} />
      {metrics ? <MetricsBody metrics={metrics} /> : <p className="text-slate-700">Corrige el rango de fechas para ver las métricas.</p>}
    </>
  );
}

function MetricsBody({ metrics }: { metrics: BusinessMetrics }) {
  const { range, days, totals } = metrics;
  const dayPoints = (pick: (day: (typeof days)[number]) => number[]) => days.map((day) => ({ label: shortDate(day.date), values: pick(day) }));
  const bestDay = days.reduce((best, day) => (day.oneTimeCents + day.subscriptionCents > best.oneTimeCents + best.subscriptionCents ? day : best), days[0]!);
  const weekRows = metrics.weeks;
  return (
    <div className="space-y-6">
      <Figures metrics={metrics} />

      <div className="grid gap-6 lg:grid-cols-2">
        <Section
          title="Ingresos por día"
          help="Lo pagado cada día, separado en compras únicas y suscripciones (primer pago y renovaciones), menos los reembolsos de pedidos devueltos ese día."
          actions={<CsvLink table="dias" range={range} label="los datos por día" />}
        >
          <BarChart
            title="Ingresos netos por día"
            description={`${days.length} días; total ${formatSoles(totals.netCents)}; el día más alto fue el ${longDate(bestDay.date)} con ${formatSoles(bestDay.oneTimeCents + bestDay.subscriptionCents)}.`}
            points={dayPoints((day) => [day.oneTimeCents, day.subscriptionCents])}
            series={REVENUE_SERIES}
            format={formatSoles}
          />
        </Section>
        <Section
          title="Pedidos y entregas por día"
          help="Pedidos con pago confirmado cada día y entregas realizadas en su fecha de entrega."
          actions={<CsvLink table="dias" range={range} label="los datos por día" />}
        >
          <LineChart
            title="Pedidos pagados y entregas realizadas por día"
            description={`${count(totals.orders)} pedidos pagados y ${count(totals.deliveries)} entregas en ${days.length} días.`}
            points={dayPoints((day) => [day.orders, day.deliveries])}
            series={ACTIVITY_SERIES}
            format={count}
          />
        </Section>
      </div>
      <div className={cardClass}>
        <Details summary="Tabla por día">
          <DataTable
            label="Ingresos, pedidos y entregas por día"
            head={["Fecha", "Compras únicas", "Suscripciones", "Reembolsos", "Ingresos netos", "Pedidos", "Entregas"]}
            rows={days.map((day) => [
              shortDate(day.date),
              formatSoles(day.oneTimeCents),
              formatSoles(day.subscriptionCents),
              formatSoles(day.refundedCents),
              formatSoles(day.oneTimeCents + day.subscriptionCents),
              count(day.orders),
              count(day.deliveries),
            ])}
          />
        </Details>
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section
          title="Por distrito"
          help="Pedidos pagados en el rango y entregas realizadas, por distrito de entrega. El gráfico muestra los 10 con más pedidos."
          actions={<CsvLink table="distritos" range={range} label="los datos por distrito" />}
        >
          {metrics.districts.length === 0 ? (
            <p className="text-sm text-slate-600">Sin pedidos ni entregas en el rango.</p>
          ) : (
            <>
              <HorizontalBars
                label="Pedidos pagados por distrito"
                rows={metrics.districts.slice(0, 10).map((row) => ({ name: row.name, value: row.orders }))}
                format={(value) => `${count(value)} pedidos`}
              />
              <Details summary="Tabla por distrito">
                <DataTable
                  label="Pedidos y entregas por distrito"
                  head={["Distrito", "Pedidos", "Entregas"]}
                  rows={metrics.districts.map((row) => [row.name, count(row.orders), count(row.deliveries)])}
                />
              </Details>
            </>
          )}
        </Section>

        <Section
          title="Suscripciones"
          help={`Activas por plan al cierre del ${longDate(range.to)} y, por semana de lunes a domingo, las que empezaron (primer pago) y las que se cancelaron en el rango.`}
          actions={
            <span className="flex flex-wrap gap-3">
              <CsvLink table="planes" range={range} label="las suscripciones por plan" />
              <CsvLink table="semanas" range={range} label="las suscripciones por semana" />
            </span>
          }
        >
          <DataTable
            label="Suscripciones activas por plan al cierre del rango"
            head={["Plan", "Activas", "Cobro por periodo", "MRR"]}
            rows={[
              ...metrics.plans.map((row) => [planLabels[row.plan], count(row.active), formatSoles(row.periodCents), formatSoles(row.mrrCents)]),
              ["Total", count(metrics.plans.reduce((sum, row) => sum + row.active, 0)), "", formatSoles(metrics.mrrCents)],
            ]}
          />
          <div className="mt-4">
            <LineChart
              title="Suscripciones nuevas y canceladas por semana"
              description={`${count(weekRows.reduce((sum, row) => sum + row.started, 0))} nuevas y ${count(weekRows.reduce((sum, row) => sum + row.cancelled, 0))} canceladas en ${weekRows.length} semanas.`}
              points={weekRows.map((row) => ({ label: shortDate(row.monday), values: [row.started, row.cancelled] }))}
              series={WEEK_SERIES}
              format={count}
            />
          </div>
          <Details summary="Tabla por semana">
            <DataTable
              label="Suscripciones nuevas y canceladas por semana"
              head={["Semana del", "Nuevas", "Canceladas"]}
              rows={weekRows.map((row) => [shortDate(row.monday), count(row.started), count(row.cancelled)])}
            />
          </Details>
        </Section>
      </div>

      <ActiveSubscriptions metrics={metrics} />
    </div>
  );
}

/**
 * Active subscriptions and MRR at the end of each week of the range, from their recorded history
 * (decision 0067-subscription-state-history): the last point is the range's end.
 */
function ActiveSubscriptions({ metrics }: { metrics: BusinessMetrics }) {
  const { range, activeWeeks } = metrics;
  const points = (pick: (week: (typeof activeWeeks)[number]) => number[]) => activeWeeks.map((week) => ({ label: shortDate(week.asOf), values: pick(week) }));
  const activeOf = (week: (typeof activeWeeks)[number]) => week.plans.map((plan) => plan.active);
  const first = activeWeeks[0]!;
  const last = activeWeeks.at(-1)!;
  const total = (week: (typeof activeWeeks)[number]) => activeOf(week).reduce((sum, value) => sum + value, 0);
  const csv = <CsvLink table="activas" range={range} label="las suscripciones activas y el MRR por semana" />;
  return (
    <>
      <div className="grid gap-6 lg:grid-cols-2">
        <Section
          title="Suscripciones activas por semana"
          help="Suscripciones activas de cada plan al cierre de cada semana (domingo a medianoche, o el último día del rango), según su historial: las pausadas, con pago vencido o canceladas ese día no cuentan."
          actions={csv}
        >
          <LineChart
            title="Suscripciones activas por plan al cierre de cada semana"
            description={`${count(total(first))} activas al ${longDate(first.asOf)} y ${count(total(last))} al ${longDate(last.asOf)}, en ${activeWeeks.length} semanas.`}
            points={points(activeOf)}
            series={PLAN_SERIES}
            format={count}
          />
        </Section>
        <Section
          title="MRR por semana"
          help="Ingreso mensual recurrente al cierre de cada semana: el cobro por periodo de las suscripciones activas ese día, con el precio y plan que tenían entonces; las anuales, divididas entre 12."
          actions={csv}
        >
          <BarChart
            title="MRR por plan al cierre de cada semana"
            description={`${formatSoles(first.mrrCents)} al ${longDate(first.asOf)} y ${formatSoles(last.mrrCents)} al ${longDate(last.asOf)}.`}
            points={points((week) => week.plans.map((plan) => plan.mrrCents))}
            series={PLAN_SERIES}
            format={formatSoles}
          />
        </Section>
      </div>
      <div className={cardClass}>
        <Details summary="Tabla de suscripciones activas y MRR por semana">
          <DataTable
            label="Suscripciones activas y MRR al cierre de cada semana"
            head={["Al cierre del", "Mensual", "Anual", "MRR mensual", "MRR anual", "MRR"]}
            rows={activeWeeks.map((week) => [
              shortDate(week.asOf),
              count(week.plans[0]!.active),
              count(week.plans[1]!.active),
              formatSoles(week.plans[0]!.mrrCents),
              formatSoles(week.plans[1]!.mrrCents),
              formatSoles(week.mrrCents),
            ])}
          />
        </Details>
      </div>
    </>
  );
}
