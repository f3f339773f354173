import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestDurations } from './request-durations.ts';

const BOUNDS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

describe('RequestDurations', () => {
  it('exposes exactly what a prom-client histogram given the same observations exposes', async () => {
    const ours = new Registry();
    const durations = new RequestDurations('http_seconds', 'Requests', BOUNDS);
    ours.registerMetric(durations.asMetric());
    const theirs = new Registry();
    const histogram = new Histogram({
      name: 'http_seconds',
      help: 'Requests',
      labelNames: ['method', 'route', 'status'],
      buckets: BOUNDS,
      registers: [theirs],
    });
    const routes = ['/api/v1/records/{id}', '/api/v1/records', '(unmatched)', '/api/v1/a "quoted" \\ route'];
    // Values on the bounds, between them, below the first and past the last.
    const values = [0, 0.001, 0.002, 0.0021, 0.05, 0.3, 1, 2.5, 7, 10, 11, 120];
    let n = 0;
    for (const route of routes) {
      for (const status of [200, 404, 429]) {
        for (const method of ['GET', 'POST']) {
          for (let i = 0; i < 5; i++) {
            const seconds = values[n++ % values.length]!;
            durations.observe(method, route, status, seconds);
            histogram.observe({ method, route, status: String(status) }, seconds);
          }
        }
      }
    }
    const lines = async (registry: Registry) => (await registry.metrics()).split('\n').sort();
    expect(await lines(ours)).toEqual(await lines(theirs));
    expect(await ours.getMetricsAsJSON()).toHaveLength(1);
    ours.resetMetrics();
    expect(await ours.metrics()).not.toContain('http_seconds_count');
  });
});
