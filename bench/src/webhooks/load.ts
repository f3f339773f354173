import autocannon from 'autocannon';
import { createRandom, generateRecord } from '../data.ts';
import { sleep } from '../time.ts';
import { wallNow } from './receiver.ts';

export interface Api {
  url: string;
  apiKey: string;
  folderId: string;
}

function recordBody(folderId: string, random: () => number, tag: string, n: number): string {
  const record = generateRecord(random);
  return JSON.stringify({
    folderId,
    title: record.title,
    email: `hook.${tag}.${n}@example.com`,
    phone: record.phone,
    data: record.data,
  });
}

export interface Burst {
  /** 2xx answers: records created, so events committed. */
  created: number;
  non2xx: number;
  errors: number;
  /** wallNow() when the first request went out, and of the first and last 2xx answers. */
  sentAt: number;
  firstCommitAt: number;
  lastCommitAt: number;
  /** POST latency seen by autocannon, ms. */
  latencyP50: number;
  latencyP99: number;
  /** Each created record's id → when its 201 arrived (wallNow()). */
  answeredAt: Map<string, number>;
}

const RECORD_ID = /"id":"([^"]+)"/;

/** `count` POST /api/v1/records as fast as `connections` keep-alive connections allow. */
export async function createBurst(api: Api, count: number, connections: number, tag: string): Promise<Burst> {
  const random = createRandom(tag.length * 7919 + Date.now());
  let n = 0;
  let created = 0;
  let firstCommitAt = Number.NaN;
  let lastCommitAt = Number.NaN;
  const answeredAt = new Map<string, number>();
  const sentAt = wallNow();
  const result = await autocannon({
    url: api.url,
    connections,
    amount: count,
    timeout: 30,
    headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json' },
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          n++;
          return { ...request, path: '/api/v1/records', body: recordBody(api.folderId, random, tag, n) };
        },
        onResponse: (status, body) => {
          if (status < 200 || status >= 300) return;
          const at = wallNow();
          if (created === 0) firstCommitAt = at;
          lastCommitAt = at;
          created++;
          const id = RECORD_ID.exec(body)?.[1];
          if (id) answeredAt.set(id, at);
        },
      },
    ],
  });
  return {
    created,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    sentAt,
    firstCommitAt,
    lastCommitAt,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    answeredAt,
  };
}

export interface PacedWrite {
  recordId: string;
  sentAt: number;
  /** When the 201's headers arrived: the transaction had committed by then. */
  answeredAt: number;
}

/**
 * One POST at a time at `rate` a second for `seconds` (a request that takes longer than its
 * slot delays the next, never piles up). Returns each created record with its timings.
 */
export async function pacedWrites(
  api: Api,
  rate: number,
  seconds: number,
  tag: string,
): Promise<PacedWrite[]> {
  const random = createRandom(tag.length * 104729 + Date.now());
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const writes: PacedWrite[] = [];
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = t0 + i * interval - performance.now();
    if (wait > 0) await sleep(wait);
    const sentAt = wallNow();
    const response = await fetch(`${api.url}/api/v1/records`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json' },
      body: recordBody(api.folderId, random, tag, i),
    });
    const answeredAt = wallNow();
    const text = await response.text();
    if (response.status !== 201) throw new Error(`POST /api/v1/records answered ${response.status}: ${text}`);
    const { data } = JSON.parse(text) as { data: { id: string } };
    writes.push({ recordId: data.id, sentAt, answeredAt });
  }
  return writes;
}
