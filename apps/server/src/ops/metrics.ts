import type { AttemptVerdict, ClaimedDelivery } from '@crm/domain';
import type { DispatcherActivity } from '@crm/webhooks';
import type { RunObserver } from '@crm/workflows';
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { RequestDurations } from './request-durations.ts';

/** Seconds; from a cached read (a few ms) to the longest request the drain waits for. */
const REQUEST_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds from a delivery's event to its first attempt: sub-second normally, minutes in a backlog. */
const LAG_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900];
/** A scrape's database reads give up after this long rather than hold the scrape. */
const QUERY_TIMEOUT_MS = 2_000;

/**
 * The process's Prometheus metrics (docs/operations.md, "Metrics"). Counters and histograms are
 * this process's own; the queue gauges are read from the database when scraped and are the
 * same in every process that reports them.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #requests: RequestDurations;
  readonly #rateLimited: Counter<'route'>;
  readonly #deliveries: Counter<'outcome'>;
  readonly #deliveryLag: Histogram;
  readonly #runs: Counter<'status'>;
  readonly #stepRetries: Counter<'action'>;
  readonly #pools = new Map<string, pg.Pool>();
  #dispatcher: (() => DispatcherActivity) | undefined;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    this.#requests = new RequestDurations(
      'crm_http_request_duration_seconds',
      'HTTP requests by route template, method and status, from the first byte read to the last written',
      REQUEST_BUCKETS,
    );
    this.registry.registerMetric(this.#requests.asMetric());
    this.#rateLimited = new Counter({
      name: 'crm_http_rate_limited_total',
      help: 'Requests refused with 429 (workspace rate limit, sign-in throttles), by route template',
      labelNames: ['route'],
      registers,
    });
    this.#deliveries = new Counter({
      name: 'crm_webhook_deliveries_total',
      help: 'Webhook delivery attempts recorded by this process, by outcome',
      labelNames: ['outcome'],
      registers,
    });
    this.#deliveryLag = new Histogram({
      name: 'crm_webhook_delivery_lag_seconds',
      help: "Seconds from a delivery's event (its transaction) to the start of its first attempt",
      buckets: LAG_BUCKETS,
      registers,
    });
    this.#runs = new Counter({
      name: 'crm_workflow_runs_total',
      help: 'Workflow runs this process finished, by final status',
      labelNames: ['status'],
      registers,
    });
    this.#stepRetries = new Counter({
      name: 'crm_workflow_step_retries_total',
      help: 'Failed workflow steps whose retry was scheduled, by action type',
      labelNames: ['action'],
      registers,
    });
    const pools = this.#pools;
    new Gauge({
      name: 'crm_db_pool_connections',
      help: "Connections of this process's database pools: open (total), idle, and clients waiting for one",
      labelNames: ['pool', 'state'],
      registers,
      collect() {
        this.reset();
        for (const [name, pool] of pools) {
          this.set({ pool: name, state: 'total' }, pool.totalCount);
          this.set({ pool: name, state: 'idle' }, pool.idleCount);
          this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
        }
      },
    });
    const dispatcher = () => this.#dispatcher?.();
    new Gauge({
      name: 'crm_webhook_attempts_in_flight',
      help: "Webhook attempts this process's dispatcher has claimed and not yet recorded: being sent, or sent and being recorded",
      labelNames: ['stage'],
      registers,
      collect() {
        this.reset();
        const now = dispatcher();
        if (!now) return;
        this.set({ stage: 'sending' }, now.sending);
        this.set({ stage: 'recording' }, now.recording);
      },
    });
    new Gauge({
      name: 'crm_webhook_dispatcher_busy_seconds',
      help: "How long this process's dispatcher has been in its current claim or recording (0 when in none); a value that keeps growing is a statement that does not return",
      labelNames: ['statement'],
      registers,
      collect() {
        this.reset();
        const now = dispatcher();
        if (!now) return;
        this.set({ statement: 'claim' }, now.claimSeconds);
        this.set({ statement: 'record' }, now.recordSeconds);
      },
    });
  }

  /** Reports what this process's webhook dispatcher is doing. */
  watchDispatcher(activity: () => DispatcherActivity): void {
    this.#dispatcher = activity;
  }

  /** Reports a pool's use under `name` (main, counters, deliveries). */
  watchPool(name: string, pool: pg.Pool): void {
    this.#pools.set(name, pool);
  }

  /** One finished request: its route template (never the raw path, whose ids are unbounded). */
  requestFinished(method: string, route: string, status: number, seconds: number): void {
    this.#requests.observe(method, route, status, seconds);
    if (status === 429) this.#rateLimited.inc({ route });
  }

  /** One recorded delivery attempt; the lag is observed for first attempts only. */
  deliveryRecorded(delivery: ClaimedDelivery, verdict: AttemptVerdict, startedAt: Date | undefined): void {
    this.#deliveries.inc({ outcome: verdict });
    if (delivery.attemptCount === 0 && startedAt) {
      this.#deliveryLag.observe(Math.max(0, (startedAt.getTime() - delivery.dueAt.getTime()) / 1000));
    }
  }

  /** What the workflow engine reports to. */
  readonly runs: RunObserver = {
    ended: (status) => this.#runs.inc({ status: status.toLowerCase() }),
    retryScheduled: (action) => this.#stepRetries.inc({ action }),
  };

  /**
   * Adds the gauges read from the database at each scrape: pending webhook deliveries (and how
   * many of them are due, and since when) and graphile-worker's jobs by state.
   */
  watchQueues(pool: pg.Pool): void {
    const registers = [this.registry];
    const read = async <T>(text: string): Promise<T | undefined> => {
      const client = await pool.connect();
      try {
        await client.query(`set statement_timeout = ${QUERY_TIMEOUT_MS}`);
        const result = await client.query(text);
        return result.rows[0] as T;
      } catch {
        return undefined;
      } finally {
        await client.query('reset statement_timeout').catch(() => undefined);
        client.release();
      }
    };
    new Gauge({
      name: 'crm_webhook_deliveries_pending',
      help: 'Webhook deliveries not yet succeeded or given up: all of them, and those due now',
      labelNames: ['state'],
      registers,
      async collect() {
        this.reset();
        const row = await read<{ pending: string; due: string }>(
          `select count(*) as pending, count(*) filter (where next_attempt_at <= now()) as due
             from deliveries where status = 'PENDING'`,
        );
        if (!row) return;
        this.set({ state: 'all' }, Number(row.pending));
        this.set({ state: 'due' }, Number(row.due));
      },
    });
    new Gauge({
      name: 'crm_webhook_deliveries_oldest_due_seconds',
      help: 'How long the longest-waiting due delivery has waited (0 when none is due)',
      registers,
      async collect() {
        this.reset();
        const row = await read<{ seconds: number | null }>(
          `select extract(epoch from now() - min(next_attempt_at))::float8 as seconds
             from deliveries where status = 'PENDING' and next_attempt_at <= now()`,
        );
        if (row) this.set(Math.max(0, row.seconds ?? 0));
      },
    });
    new Gauge({
      name: 'crm_jobs',
      help: "Background jobs in graphile-worker's queue: ready, scheduled for later, running, failed for good",
      labelNames: ['state'],
      registers,
      async collect() {
        this.reset();
        const row = await read<Record<'ready' | 'scheduled' | 'running' | 'failed', string>>(
          `select count(*) filter (where locked_at is null and run_at <= now() and attempts < max_attempts) as ready,
                  count(*) filter (where locked_at is null and run_at > now() and attempts < max_attempts) as scheduled,
                  count(*) filter (where locked_at is not null) as running,
                  count(*) filter (where locked_at is null and attempts >= max_attempts) as failed
             from graphile_worker.jobs`,
        );
        if (!row) return;
        for (const state of ['ready', 'scheduled', 'running', 'failed'] as const) {
          this.set({ state }, Number(row[state]));
        }
      },
    });
  }
}
