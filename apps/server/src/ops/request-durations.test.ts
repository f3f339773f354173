import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestDurations } from './request-durations.ts';

const NAME = 'crm_http_request_duration_seconds';
const HELP = 'Requests';
const BOUNDS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

describe('RequestDurations', () => {
  it('exposes what prom-client’s Histogram exposes for the same observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const durations = new RequestDurations(NAME, HELP, BOUNDS, ours);
    const histogram = new Histogram({
      name: NAME,
      help: HELP,
      labelNames: ['method', 'route', 'status'],
      buckets: BOUNDS,
      registers: [theirs],
    });
    const observations: [string, string, number, number][] = [
      ['GET', '/api/v1/records/{id}', 200, 0.0031],
      ['GET', '/api/v1/records/{id}', 200, 0.002],
      ['GET', '/api/v1/records/{id}', 304, 0.0004],
      ['POST', '/api/v1/records', 201, 0.04],
      ['GET', '/api/v1/records/{id}', 200, 12],
      ['GET', '(unmatched)', 404, 0.001],
      ['GET', '/api/v1/records/{id}', 200, 10],
    ];
    for (const [method, route, status, seconds] of observations) {
      durations.observe(method, route, status, seconds);
      histogram.observe({ method, route, status: String(status) }, seconds);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.metrics()).toContain(
      `${NAME}_bucket{le="+Inf",method="GET",route="/api/v1/records/{id}",status="200"} 4`,
    );

    ours.resetMetrics();
    expect(await ours.metrics()).toBe(`# HELP ${NAME} ${HELP}\n# TYPE ${NAME} histogram\n`);
  });
});
