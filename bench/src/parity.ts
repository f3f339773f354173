import { isDeepStrictEqual } from 'node:util';
import type { Target } from './scenarios.ts';

interface Envelope {
  data: Record<string, unknown> | Record<string, unknown>[];
  meta?: Record<string, unknown>;
}

async function call(target: Target, apiKey: string, path: string, body?: unknown) {
  const response = await fetch(`${target.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Envelope };
}

/**
 * Before measuring, checks that both servers answer the three routes with the same status
 * and the same JSON: identical bodies for reads, the same fields for a creation.
 */
export async function checkParity(
  targets: [Target, Target],
  apiKey: string,
  folderId: string,
  recordId: string,
): Promise<void> {
  const [a, b] = targets;
  const problems: string[] = [];
  for (const path of [`/api/v1/records/${recordId}`, '/api/v1/records?pageSize=50']) {
    const [ra, rb] = await Promise.all([call(a, apiKey, path), call(b, apiKey, path)]);
    if (ra.status !== 200 || rb.status !== 200) {
      problems.push(`GET ${path}: ${a.name} ${ra.status}, ${b.name} ${rb.status}`);
    } else if (!isDeepStrictEqual(ra.body, rb.body)) {
      problems.push(`GET ${path}: bodies differ`);
    }
  }
  const input = (who: string) => ({
    folderId,
    title: 'Parity Check',
    email: `parity.${who}.${Date.now()}@example.com`,
    phone: '+1 415 555 0100',
    data: { company: 'Parity Labs', lifecycle: 'Lead' },
  });
  const [ca, cb] = [
    await call(a, apiKey, '/api/v1/records', input(a.name)),
    await call(b, apiKey, '/api/v1/records', input(b.name)),
  ];
  if (ca.status !== 201 || cb.status !== 201) {
    problems.push(`POST /api/v1/records: ${a.name} ${ca.status}, ${b.name} ${cb.status}`);
  } else {
    const shape = (envelope: Envelope) => {
      const { id, email, createdAt, updatedAt, ...rest } = envelope.data as Record<string, unknown>;
      return { keys: Object.keys(envelope.data).sort(), rest, idPrefix: String(id).slice(0, 4) };
    };
    if (!isDeepStrictEqual(shape(ca.body), shape(cb.body))) {
      problems.push(
        `POST /api/v1/records: created records differ: ${JSON.stringify(ca.body)} vs ${JSON.stringify(cb.body)}`,
      );
    }
  }
  if (problems.length > 0) throw new Error(`The servers do not answer alike:\n  ${problems.join('\n  ')}`);
}
