import { missing } from '@crm/domain';
import type { Metric } from 'prom-client';

/** One series of the histogram: a method, route template and status. */
interface Series {
  labels: { method: string; route: string; status: string };
  /** Observations per bucket, not cumulative; the last one is past every bound (`+Inf`). */
  counts: number[];
  sum: number;
  count: number;
}

/**
 * The request-duration histogram, exposed to a prom-client registry as any histogram is. It
 * is its own class rather than a prom-client `Histogram` because every request observes it:
 * prom-client checks and joins the labels into a key on every observation, which cost the
 * API about 1 % of its CPU on a cheap request; here the series is found through maps keyed by
 * the route template (the same string every time), the status and the method
 * (docs/architecture.md, "Cost per request").
 */
export class RequestDurations {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #series = new Map<string, Map<number, Map<string, Series>>>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly bounds: readonly number[],
  ) {}

  observe(method: string, route: string, status: number, seconds: number): void {
    let byStatus = this.#series.get(route);
    if (!byStatus) {
      byStatus = new Map();
      this.#series.set(route, byStatus);
    }
    let byMethod = byStatus.get(status);
    if (!byMethod) {
      byMethod = new Map();
      byStatus.set(status, byMethod);
    }
    let series = byMethod.get(method);
    if (!series) {
      series = {
        labels: { method, route, status: String(status) },
        counts: new Array<number>(this.bounds.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      byMethod.set(method, series);
    }
    const { bounds } = this;
    let bucket = 0;
    while (bucket < bounds.length && seconds > (bounds[bucket] ?? missing('a bound below bounds.length')))
      bucket++;
    series.counts[bucket] = (series.counts[bucket] ?? missing('a count per bound and one above')) + 1;
    series.sum += seconds;
    series.count++;
  }

  /**
   * What a prom-client registry reads, in the shape its histograms give it: cumulative buckets
   * (`le`), then the sum and count of each series, the series' labels shared by all of them.
   */
  async get() {
    const values: {
      labels: Record<string, string | number>;
      sharedLabels: Series['labels'];
      value: number;
      metricName: string;
    }[] = [];
    const bucket = `${this.name}_bucket`;
    for (const byStatus of this.#series.values()) {
      for (const byMethod of byStatus.values()) {
        for (const { labels, counts, sum, count } of byMethod.values()) {
          let cumulative = 0;
          this.bounds.forEach((bound, i) => {
            cumulative += counts[i] ?? missing('counts[i]');
            values.push({
              labels: { le: bound },
              sharedLabels: labels,
              value: cumulative,
              metricName: bucket,
            });
          });
          values.push({ labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: bucket });
          values.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${this.name}_sum` });
          values.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${this.name}_count` });
        }
      }
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {
    this.#series.clear();
  }

  /** The registry's type for what it collects. */
  asMetric(): Metric {
    return this as unknown as Metric;
  }
}
