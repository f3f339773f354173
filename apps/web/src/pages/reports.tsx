import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { Loading, PageHeader, ProblemMessage, SelectField } from '../lib/components.tsx';
import { formatMoney } from '../lib/format.ts';
import { NoPipeline, PipelinePicker, usePipelineChoice } from '../lib/pipeline-picker.tsx';
import { api, type Outputs, problemOf } from '../lib/query.ts';
import { canManage, useSession } from '../lib/session.tsx';

type WebhookHealth = Outputs['reports']['webhookHealth']['data'];
type Subscription = WebhookHealth['subscriptions'][number];

/** Series colours, with enough contrast on white and told apart by the legend and tables too. */
const COLOURS = {
  primary: '#0b5cad',
  won: '#1a7f37',
  lost: '#b42318',
  queued: '#8c959f',
  running: '#9a6700',
  waiting: '#8250df',
  cancelled: '#57606a',
  p50: '#54aeff',
  p95: '#0b5cad',
};

/**
 * Charts of the workspace's deals, webhooks and automations. Every number comes from the
 * server's `reports.*` procedures, which count and sum in the database: the page only picks
 * values out of their answers (a stage's total in the chosen currency, say), never adds any up.
 * Each chart has a table with the same numbers under it, which is also what a screen reader
 * reads (the drawing itself is hidden from it). Deal reports are every member's; webhook and
 * automation health only owners' and admins', as their settings pages are (docs/web-app.md).
 */
export function ReportsPage() {
  const session = useSession();
  const choice = usePipelineChoice();
  const { pipelines, pipelineId } = choice;

  return (
    <>
      <PageHeader title="Reports">
        <PipelinePicker choice={choice} />
      </PageHeader>
      <p className="hint">Days and months are in UTC.</p>
      <ProblemMessage problem={problemOf(pipelines.error)} />
      {pipelineId ? (
        <>
          <PipelineReport pipelineId={pipelineId} />
          <WonLostReport pipelineId={pipelineId} />
        </>
      ) : (
        <NoPipeline choice={choice} what="the pipelines" />
      )}
      {canManage(session) ? (
        <>
          <WebhookReport />
          <AutomationReport />
        </>
      ) : null}
    </>
  );
}

/** A report's card: its heading, what it counts, and its problem, loading or empty state. */
function ReportCard({
  id,
  title,
  about,
  query,
  empty,
  children,
}: {
  id: string;
  title: string;
  about: ReactNode;
  query: { error: unknown; isPending: boolean };
  /** The empty state's text, or null when there is something to show. */
  empty: string | null;
  children: ReactNode;
}) {
  return (
    <section className="card report" aria-labelledby={id} data-report={id}>
      <h2 id={id}>{title}</h2>
      <p className="hint">{about}</p>
      <ProblemMessage problem={problemOf(query.error)} />
      {query.error ? null : query.isPending ? (
        <Loading what="the report" />
      ) : empty ? (
        <p className="empty">{empty}</p>
      ) : (
        children
      )}
    </section>
  );
}

/** A chart drawn for the eye: its numbers are in the table next to it, which assistive technology reads. */
function Chart({ height = 260, children }: { height?: number; children: ReactNode }) {
  return (
    <div className="chart" aria-hidden="true">
      <ResponsiveContainer width="100%" height={height}>
        {children}
      </ResponsiveContainer>
    </div>
  );
}

/** A currency picker when there is more than one; amounts of different currencies are never drawn together. */
function useCurrency(currencies: string[]): [string | null, ReactNode] {
  const [chosen, setChosen] = useState<string | null>(null);
  const currency = chosen && currencies.includes(chosen) ? chosen : (currencies[0] ?? null);
  const picker =
    currencies.length > 1 ? (
      <SelectField
        label="Currency"
        value={currency ?? ''}
        onChange={(e) => setChosen(e.target.value)}
        options={currencies.map((c) => ({ value: c, label: c }))}
      />
    ) : null;
  return [currency, picker];
}

function PipelineReport({ pipelineId }: { pipelineId: string }) {
  const query = useQuery(api.pipelines.summary.queryOptions({ id: pipelineId }));
  const summary = query.data?.data;
  const currencies = summary?.totals.map((t) => t.currency) ?? [];
  const [currency, picker] = useCurrency(currencies);
  const data =
    summary?.stages.map((stage) => {
      const total = stage.totals.find((t) => t.currency === currency);
      return { name: stage.name, amount: total?.amount ?? 0, count: total?.count ?? 0 };
    }) ?? [];
  return (
    <ReportCard
      id="report-pipeline"
      title="Pipeline by stage"
      about="Every deal of the pipeline now: how many each stage holds and what they amount to, per currency."
      query={query}
      empty={summary && summary.count === 0 ? 'No deals in this pipeline yet.' : null}
    >
      {picker}
      {currency ? (
        <Chart>
          <BarChart data={data} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="name" />
            <YAxis tickFormatter={(v: number) => compact(v)} width={70} />
            <Tooltip formatter={(v) => formatMoney(Number(v), currency)} />
            <Bar
              dataKey="amount"
              name={`Value (${currency})`}
              fill={COLOURS.primary}
              isAnimationActive={false}
            />
          </BarChart>
        </Chart>
      ) : null}
      {summary ? (
        <table className="report-table">
          <caption>Deals and value by stage</caption>
          <thead>
            <tr>
              <th scope="col">Stage</th>
              <th scope="col">Deals</th>
              {currencies.map((c) => (
                <th scope="col" key={c}>
                  Value ({c})
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {summary.stages.map((stage) => (
              <tr key={stage.stageId}>
                <th scope="row">{stage.name}</th>
                <td>{stage.count}</td>
                {currencies.map((c) => (
                  <td key={c}>{moneyOf(stage.totals, c)}</td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">All stages</th>
              <td>{summary.count}</td>
              {currencies.map((c) => (
                <td key={c}>{moneyOf(summary.totals, c)}</td>
              ))}
            </tr>
          </tfoot>
        </table>
      ) : null}
    </ReportCard>
  );
}

function WonLostReport({ pipelineId }: { pipelineId: string }) {
  const query = useQuery(api.reports.wonLost.queryOptions({ pipelineId }));
  const report = query.data?.data;
  const [currency, picker] = useCurrency(report?.currencies ?? []);
  const stagesMissing = report && report.wonStages.length === 0 && report.lostStages.length === 0;
  const none = report?.months.every((m) => m.won.count === 0 && m.lost.count === 0);
  const counts =
    report?.months.map((m) => ({ month: monthLabel(m.month), won: m.won.count, lost: m.lost.count })) ?? [];
  const values =
    report?.months.map((m) => ({
      month: monthLabel(m.month),
      won: m.won.totals.find((t) => t.currency === currency)?.amount ?? 0,
      lost: m.lost.totals.find((t) => t.currency === currency)?.amount ?? 0,
    })) ?? [];
  return (
    <ReportCard
      id="report-won-lost"
      title="Won and lost per month"
      about={
        <>
          Deals in a stage named Won or Lost (also “Closed won”, “Closed lost”), in the month of their close
          date, or of their last change when they have none; the last 12 months.
        </>
      }
      query={query}
      empty={
        stagesMissing
          ? 'This pipeline has no stage named Won or Lost.'
          : none
            ? 'No deals won or lost in the last 12 months.'
            : null
      }
    >
      <h3>Deals</h3>
      <Chart height={220}>
        <BarChart data={counts} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="month" />
          <YAxis allowDecimals={false} width={40} />
          <Tooltip />
          <Legend />
          <Bar dataKey="won" name="Won" fill={COLOURS.won} isAnimationActive={false} />
          <Bar dataKey="lost" name="Lost" fill={COLOURS.lost} isAnimationActive={false} />
        </BarChart>
      </Chart>
      {currency ? (
        <>
          <h3>Value ({currency})</h3>
          {picker}
          <Chart height={220}>
            <BarChart data={values} accessibilityLayer={false}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="month" />
              <YAxis tickFormatter={(v: number) => compact(v)} width={70} />
              <Tooltip formatter={(v) => formatMoney(Number(v), currency)} />
              <Legend />
              <Bar dataKey="won" name={`Won (${currency})`} fill={COLOURS.won} isAnimationActive={false} />
              <Bar dataKey="lost" name={`Lost (${currency})`} fill={COLOURS.lost} isAnimationActive={false} />
            </BarChart>
          </Chart>
        </>
      ) : null}
      {report ? (
        <table className="report-table">
          <caption>Deals won and lost per month</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Won</th>
              <th scope="col">Lost</th>
              {report.currencies.map((c) => (
                <th scope="col" key={`won ${c}`}>
                  Won value ({c})
                </th>
              ))}
              {report.currencies.map((c) => (
                <th scope="col" key={`lost ${c}`}>
                  Lost value ({c})
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.months.map((m) => (
              <tr key={m.month}>
                <th scope="row">
                  <time dateTime={m.month}>{monthLabel(m.month)}</time>
                </th>
                <td>{m.won.count}</td>
                <td>{m.lost.count}</td>
                {report.currencies.map((c) => (
                  <td key={`won ${c}`}>{moneyOf(m.won.totals, c)}</td>
                ))}
                {report.currencies.map((c) => (
                  <td key={`lost ${c}`}>{moneyOf(m.lost.totals, c)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </ReportCard>
  );
}

function WebhookReport() {
  const query = useQuery(api.reports.webhookHealth.queryOptions());
  const report = query.data?.data;
  const [chosen, setChosen] = useState<string | null>(null);
  const subscriptions = report?.subscriptions ?? [];
  const selected = subscriptions.find((s) => s.webhookId === chosen) ?? subscriptions[0];
  /** No subscription had an attempt in the window: no rate or latency to draw. */
  const quiet = subscriptions.every((s) => s.successRate === null);
  const bySubscription = subscriptions.map((s) => ({
    name: subscriptionName(s),
    successRate: s.successRate,
    p50Ms: s.p50Ms,
    p95Ms: s.p95Ms,
  }));
  return (
    <ReportCard
      id="report-webhooks"
      title="Webhook deliveries"
      about={
        <>
          The last 7 days. An attempt succeeds on a 2xx answer; latency is the time an attempt took, median
          (p50) and 95th percentile (p95). Deliveries count on the day they were created, by their status now.
        </>
      }
      query={query}
      empty={report && subscriptions.length === 0 ? 'No webhook subscriptions yet.' : null}
    >
      {quiet ? (
        <p className="empty">No delivery attempts in the last 7 days.</p>
      ) : (
        <div className="chart-pair">
          <div>
            <h3>Success rate</h3>
            <Chart height={Math.max(140, 50 * subscriptions.length + 40)}>
              <BarChart data={bySubscription} layout="vertical" accessibilityLayer={false}>
                <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                <XAxis type="number" domain={[0, 100]} unit=" %" />
                <YAxis type="category" dataKey="name" width={160} />
                <Tooltip formatter={(v) => `${v} %`} />
                <Bar
                  dataKey="successRate"
                  name="Attempts succeeded"
                  fill={COLOURS.won}
                  isAnimationActive={false}
                />
              </BarChart>
            </Chart>
          </div>
          <div>
            <h3>Latency</h3>
            <Chart height={Math.max(140, 50 * subscriptions.length + 40)}>
              <BarChart data={bySubscription} layout="vertical" accessibilityLayer={false}>
                <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                <XAxis type="number" unit=" ms" />
                <YAxis type="category" dataKey="name" width={160} />
                <Tooltip formatter={(v) => `${v} ms`} />
                <Legend />
                <Bar dataKey="p50Ms" name="p50" fill={COLOURS.p50} isAnimationActive={false} />
                <Bar dataKey="p95Ms" name="p95" fill={COLOURS.p95} isAnimationActive={false} />
              </BarChart>
            </Chart>
          </div>
        </div>
      )}
      <table className="report-table">
        <caption>Per subscription, the last 7 days</caption>
        <HealthHead first="Subscription" />
        <tbody>
          {subscriptions.map((s) => (
            <tr key={s.webhookId} data-webhook={s.webhookId}>
              <th scope="row">
                {subscriptionName(s)}
                {s.enabled ? null : <small className="hint"> (disabled)</small>}
              </th>
              <HealthCells counts={s} />
            </tr>
          ))}
        </tbody>
      </table>
      {selected ? (
        <>
          <h3>Per day</h3>
          {subscriptions.length > 1 ? (
            <SelectField
              label="Subscription"
              value={selected.webhookId}
              onChange={(e) => setChosen(e.target.value)}
              options={subscriptions.map((s) => ({ value: s.webhookId, label: subscriptionName(s) }))}
            />
          ) : null}
          <Chart height={240}>
            <ComposedChart
              data={selected.days.map((d) => ({ ...d, label: dayLabel(d.day) }))}
              accessibilityLayer={false}
            >
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" />
              <YAxis yAxisId="attempts" allowDecimals={false} width={40} />
              <YAxis yAxisId="ms" orientation="right" unit=" ms" width={70} />
              <Tooltip />
              <Legend />
              <Bar
                yAxisId="attempts"
                dataKey="attemptsSucceeded"
                name="Attempts succeeded"
                stackId="attempts"
                fill={COLOURS.won}
                isAnimationActive={false}
              />
              <Bar
                yAxisId="attempts"
                dataKey="attemptsFailed"
                name="Attempts failed"
                stackId="attempts"
                fill={COLOURS.lost}
                isAnimationActive={false}
              />
              <Line
                yAxisId="ms"
                dataKey="p95Ms"
                name="p95 latency"
                stroke={COLOURS.p95}
                connectNulls={false}
                isAnimationActive={false}
              />
            </ComposedChart>
          </Chart>
          <table className="report-table">
            <caption>{subscriptionName(selected)}, per day</caption>
            <HealthHead first="Day" />
            <tbody>
              {selected.days.map((d) => (
                <tr key={d.day}>
                  <th scope="row">
                    <time dateTime={d.day}>{dayLabel(d.day)}</time>
                  </th>
                  <HealthCells counts={d} />
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </ReportCard>
  );
}

function HealthHead({ first }: { first: string }) {
  return (
    <thead>
      <tr>
        <th scope="col">{first}</th>
        <th scope="col">Attempts succeeded</th>
        <th scope="col">Attempts failed</th>
        <th scope="col">Success rate</th>
        <th scope="col">p50</th>
        <th scope="col">p95</th>
        <th scope="col">Deliveries succeeded</th>
        <th scope="col">Deliveries failed</th>
        <th scope="col">Deliveries pending</th>
      </tr>
    </thead>
  );
}

function HealthCells({
  counts,
}: {
  counts: Omit<Subscription, 'webhookId' | 'url' | 'description' | 'enabled' | 'days'>;
}) {
  return (
    <>
      <td>{counts.attemptsSucceeded}</td>
      <td>{counts.attemptsFailed}</td>
      <td>{counts.successRate === null ? '—' : `${counts.successRate} %`}</td>
      <td>{counts.p50Ms === null ? '—' : `${counts.p50Ms} ms`}</td>
      <td>{counts.p95Ms === null ? '—' : `${counts.p95Ms} ms`}</td>
      <td>{counts.deliveriesSucceeded}</td>
      <td>{counts.deliveriesFailed}</td>
      <td>{counts.deliveriesPending}</td>
    </>
  );
}

function AutomationReport() {
  const query = useQuery(api.reports.automationRuns.queryOptions());
  const report = query.data?.data;
  const data = report?.days.map((d) => ({ ...d, label: dayLabel(d.day) })) ?? [];
  return (
    <ReportCard
      id="report-runs"
      title="Automation runs"
      about="Runs of every automation on the day they were queued, by their status now; the last 14 days."
      query={query}
      empty={report && report.totals.total === 0 ? 'No automation runs in the last 14 days.' : null}
    >
      <Chart>
        <BarChart data={data} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" />
          <YAxis allowDecimals={false} width={40} />
          <Tooltip />
          <Legend />
          <Bar
            dataKey="succeeded"
            name="Succeeded"
            stackId="runs"
            fill={COLOURS.won}
            isAnimationActive={false}
          />
          <Bar dataKey="failed" name="Failed" stackId="runs" fill={COLOURS.lost} isAnimationActive={false} />
          <Bar
            dataKey="cancelled"
            name="Cancelled"
            stackId="runs"
            fill={COLOURS.cancelled}
            isAnimationActive={false}
          />
          <Bar
            dataKey="waiting"
            name="Waiting"
            stackId="runs"
            fill={COLOURS.waiting}
            isAnimationActive={false}
          />
          <Bar
            dataKey="running"
            name="Running"
            stackId="runs"
            fill={COLOURS.running}
            isAnimationActive={false}
          />
          <Bar
            dataKey="queued"
            name="Queued"
            stackId="runs"
            fill={COLOURS.queued}
            isAnimationActive={false}
          />
        </BarChart>
      </Chart>
      {report ? (
        <table className="report-table">
          <caption>Automation runs per day and status</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Succeeded</th>
              <th scope="col">Failed</th>
              <th scope="col">Cancelled</th>
              <th scope="col">Waiting</th>
              <th scope="col">Running</th>
              <th scope="col">Queued</th>
              <th scope="col">All</th>
            </tr>
          </thead>
          <tbody>
            {report.days.map((d) => (
              <tr key={d.day}>
                <th scope="row">
                  <time dateTime={d.day}>{dayLabel(d.day)}</time>
                </th>
                <td>{d.succeeded}</td>
                <td>{d.failed}</td>
                <td>{d.cancelled}</td>
                <td>{d.waiting}</td>
                <td>{d.running}</td>
                <td>{d.queued}</td>
                <td>{d.total}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">14 days</th>
              <td>{report.totals.succeeded}</td>
              <td>{report.totals.failed}</td>
              <td>{report.totals.cancelled}</td>
              <td>{report.totals.waiting}</td>
              <td>{report.totals.running}</td>
              <td>{report.totals.queued}</td>
              <td>{report.totals.total}</td>
            </tr>
          </tfoot>
        </table>
      ) : null}
    </ReportCard>
  );
}

/** The amount of one currency in a list of per-currency totals, or a dash when it has none. */
function moneyOf(totals: { currency: string; amount: number }[], currency: string): string {
  const total = totals.find((t) => t.currency === currency);
  return total ? formatMoney(total.amount, currency) : '—';
}

/** An axis tick: 12000 as "12K". */
function compact(value: number): string {
  return value.toLocaleString(undefined, { notation: 'compact' });
}

/** "2026-11" as "Nov 2026". */
function monthLabel(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** "2026-11-20" as "Nov 20". */
function dayLabel(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

function subscriptionName(s: Pick<Subscription, 'url' | 'description'>): string {
  return s.description || s.url;
}
