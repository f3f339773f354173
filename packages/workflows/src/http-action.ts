import type { AllowList, Resolver } from '@crm/webhooks';
import { sendRequest } from '@crm/webhooks';
import { StepError } from './errors.ts';
import type { StepResult } from './record-actions.ts';

const HTTP_USER_AGENT = 'crm-workflows/1.0';

const HEADER_VALUE = /^[\t\x20-\x7e]{0,4000}$/;

export interface HttpActionOptions {
  /** Addresses allowed despite the guard (WEBHOOK_ALLOW_CIDRS). */
  allow: AllowList;
  connectTimeoutMs?: number;
  timeoutMs?: number;
  resolve?: Resolver;
}

function parseBody(body: Buffer, contentType: string | undefined): unknown {
  const text = body.toString('utf8');
  if (contentType?.toLowerCase().includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * HTTP_REQUEST: calls the rendered URL through the same guard and deadlines as webhook
 * deliveries (5 s to connect, 15 s in all, no redirects, at most 64 KiB read). A 2xx answer is
 * the step's output `{ status, headers, body }` (JSON bodies parsed); anything else fails the
 * step — a refused address for good, the rest to be retried. `Idempotency-Key` is
 * `<runId>:<path>`, the same on every attempt of the step, so a receiver can drop a repeat
 * (docs/workflows.md, "HTTP_REQUEST"); a header of that name in the action is replaced.
 */
export async function runHttpAction(
  params: Record<string, unknown>,
  options: HttpActionOptions,
  idempotencyKey?: string,
): Promise<StepResult> {
  const url = params.url;
  if (typeof url !== 'string' || url === '') throw new StepError('url rendered to nothing', true);
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new StepError(`url ${JSON.stringify(url.slice(0, 200))} is not an http(s) URL`, true);
  }
  const method = typeof params.method === 'string' ? params.method : 'POST';
  const headers: Record<string, string> = { 'User-Agent': HTTP_USER_AGENT, Accept: 'application/json, */*' };
  for (const [name, value] of Object.entries((params.headers as Record<string, unknown> | undefined) ?? {})) {
    const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
    // A rendered value must stay one header line: no CR/LF smuggled in by a template.
    if (!HEADER_VALUE.test(text))
      throw new StepError(`header ${name} rendered to a value that is not printable ASCII`, true);
    headers[name] = text;
  }
  if (idempotencyKey !== undefined) {
    for (const name of Object.keys(headers))
      if (name.toLowerCase() === 'idempotency-key') delete headers[name];
    headers['Idempotency-Key'] = idempotencyKey;
  }
  let body: Buffer | undefined;
  if (params.body !== undefined && method !== 'GET') {
    body = Buffer.from(typeof params.body === 'string' ? params.body : JSON.stringify(params.body), 'utf8');
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
      headers['Content-Type'] =
        typeof params.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
    }
  }
  const result = await sendRequest({
    url,
    method,
    headers,
    ...(body ? { body } : {}),
    allow: options.allow,
    ...(options.resolve ? { resolve: options.resolve } : {}),
    ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  if ('error' in result) {
    throw new StepError(
      `${method} ${new URL(url).host}: ${result.error}`,
      result.error.startsWith('refused address'),
    );
  }
  if (result.status < 200 || result.status > 299) {
    const excerpt = result.excerpt.slice(0, 300);
    throw new StepError(
      `${method} ${new URL(url).host} answered ${result.status}${excerpt ? `: ${excerpt}` : ''}`,
      false,
    );
  }
  const contentType = result.headers['content-type'];
  return {
    output: {
      status: result.status,
      headers: contentType ? { 'content-type': contentType } : {},
      body: parseBody(result.body, typeof contentType === 'string' ? contentType : undefined),
    },
  };
}
