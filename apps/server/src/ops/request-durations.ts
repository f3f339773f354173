import type { Registry } from 'prom-client';

interface Series {
  labels: { method: string; route: string; status: string };
  /** Observations per bucket, not cumulated: `counts[i]` fell in (bounds[i-1], bounds[i]]; the last is above every bound. */
  counts: number[];
  sum: number;
  count: number;
}

interface Sample {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/**
 * The request-duration histogram, by method, route template and status, in the exposition
 * format of prom-client's Histogram (`_bucket` series with `le`, `_sum`, `_count`). It is
 * observed on every request: prom-client's Histogram validates and hashes the label object
 * on each observation, while this finds its series by one string key (docs/operations.md,
 * "Metrics").
 */
export class RequestDurations {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    // A registry takes any object with a name that answers get(); the cast is for its types,
    // which list prom-client's own classes.
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.#series.get(key);
    if (!series) {
      series = {
        labels: { method, route, status: String(status) },
        counts: new Array<number>(this.bounds.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      this.#series.set(key, series);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  /** What a scrape reads, as prom-client's Histogram gives it. */
  get(): { name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: Sample[] } {
    const values: Sample[] = [];
    for (const series of this.#series.values()) {
      let cumulated = 0;
      this.bounds.forEach((bound, i) => {
        cumulated += series.counts[i]!;
        values.push({
          metricName: `${this.name}_bucket`,
          labels: { le: bound, ...series.labels },
          value: cumulated,
        });
      });
      values.push({
        metricName: `${this.name}_bucket`,
        labels: { le: '+Inf', ...series.labels },
        value: series.count,
      });
      values.push({ metricName: `${this.name}_sum`, labels: series.labels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: series.labels, value: series.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.#series.clear();
  }
}
