import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import {
  AddressRefusedError,
  type AllowList,
  assertAllowedAddress,
  guardedLookup,
  ipLiteral,
  parseAllowList,
  parseDestination,
  type Resolver,
} from './address-guard.ts';

/**
 * At most 64 KiB of a receiver's response is ever read; the first 4 KiB are kept
 * (docs/webhooks.md, "Delivery, retries, disabling").
 */
const MAX_RESPONSE_BYTES = 64 * 1024;
const EXCERPT_BYTES = 4 * 1024;

export interface SendRequestOptions {
  /**
   * Destination; only http: and https:, checked by the address guard (docs/webhooks.md,
   * "Destinations"; docs/workflows.md, "Actions").
   */
  url: string;
  /** HTTP method; default POST. */
  method?: string;
  headers?: OutgoingHttpHeaders;
  /** Sent as is; Content-Length is set from it unless given. */
  body?: Buffer;
  /** Addresses the operator allows despite the guard (`WEBHOOK_ALLOW_CIDRS`); default none. */
  allow?: AllowList;
  /** Name resolution (tests inject one); default the system resolver. */
  resolve?: Resolver;
  /**
   * Deadline for DNS + TCP connect (+ TLS handshake); default 5000 ms (docs/webhooks.md,
   * "Delivery, retries, disabling").
   */
  connectTimeoutMs?: number;
  /**
   * Deadline for the whole attempt up to the response headers; default 15000 ms
   * (docs/webhooks.md, "Delivery, retries, disabling").
   */
  timeoutMs?: number;
  /**
   * Keep-alive connections to reuse (see `createDeliveryAgents`); default none, a fresh
   * connection per call. Reuse is safe under the guard: every new connection is still
   * checked at connect time, and a reused one goes to the address checked when it opened.
   * One agent must only ever serve one allow list and resolver.
   */
  agent?: http.Agent | undefined;
}

export interface SentResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The first 4 KiB of the body as UTF-8 text. */
  excerpt: string;
  /** What was read of the body, at most 64 KiB. */
  body: Buffer;
  /** True when reading stopped before the body ended (size limit, deadline, or the receiver hung up). */
  truncated: boolean;
  durationMs: number;
}

interface SendFailure {
  /** 'timeout', 'connect timeout', 'refused address: …', 'connection refused', … */
  error: string;
  durationMs: number;
}

export type SendResult = SentResponse | SendFailure;

/** The operator's allow list; `env` is the app's parsed environment (STYLE: one env.ts per app). */
export function allowListFromEnv(env: Readonly<Record<string, string | undefined>>): AllowList {
  return parseAllowList(env.WEBHOOK_ALLOW_CIDRS);
}

function describeError(err: unknown): string {
  if (err instanceof AddressRefusedError) {
    return `refused address: ${err.address ? `${err.address} (${err.reason})` : err.message}`;
  }
  const nested = err instanceof AggregateError ? (err.errors[0] as unknown) : err;
  const { code, message } = (nested ?? {}) as NodeJS.ErrnoException;
  if (nested instanceof AddressRefusedError) return describeError(nested);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NODATA':
      return `DNS lookup failed (${code})`;
  }
  if (code && /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO)/.test(code))
    return `TLS error: ${code}`;
  return code ? `${code}: ${message}` : String(message ?? err);
}

/**
 * One outgoing HTTP(S) request under the address guard. Never throws and never follows a
 * redirect (a 3xx is a failed attempt, decided by the caller: docs/webhooks.md, "Delivery,
 * retries, disabling").
 */
export function sendRequest(options: SendRequestOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const allow = options.allow ?? parseAllowList(undefined);
  let target: URL;
  try {
    target = parseDestination(options.url);
    // Node skips `lookup` for IP literals, so they are judged here, before any socket exists.
    const literal = ipLiteral(target);
    if (literal) assertAllowedAddress(literal, allow);
  } catch (err) {
    return Promise.resolve({ error: describeError(err), durationMs: elapsed() });
  }
  const isHttps = target.protocol === 'https:';

  return new Promise<SendResult>((resolve) => {
    let request: http.ClientRequest | undefined;
    let settled = false;
    /** `keep`: the response was read to its end, so the connection may serve the next request. */
    const finish = (result: SendResult, keep = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      if (!keep) request?.destroy();
      resolve(result);
    };
    const fail = (error: string) => finish({ error, durationMs: elapsed() });
    let onDeadline = () => fail('timeout');
    const connectTimer = setTimeout(() => fail('connect timeout'), options.connectTimeoutMs ?? 5000);
    const totalTimer = setTimeout(() => onDeadline(), options.timeoutMs ?? 15_000);

    const headers: OutgoingHttpHeaders = { ...options.headers };
    const hasLength = Object.keys(headers).some((name) => name.toLowerCase() === 'content-length');
    if (options.body && !hasLength) headers['content-length'] = options.body.length;
    try {
      request = (isHttps ? https : http).request(target, {
        method: options.method ?? 'POST',
        headers,
        agent: options.agent ?? false,
        lookup: guardedLookup(allow, options.resolve),
      });
    } catch (err) {
      // Invalid header names or values are thrown synchronously by http.request.
      fail(`invalid request: ${(err as Error).message}`);
      return;
    }

    request.on('socket', (socket) => {
      // A kept-alive connection is open already (and was checked when it opened).
      if (!socket.connecting) {
        clearTimeout(connectTimer);
        return;
      }
      socket.once(isHttps ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    request.on('error', (err) => fail(describeError(err)));
    request.on('response', (response) => {
      clearTimeout(connectTimer);
      const chunks: Buffer[] = [];
      let size = 0;
      const respond = (truncated: boolean) => {
        const body = Buffer.concat(chunks, size);
        finish(
          {
            status: response.statusCode ?? 0,
            headers: response.headers,
            excerpt: body.subarray(0, EXCERPT_BYTES).toString('utf8'),
            body,
            truncated,
            durationMs: elapsed(),
          },
          !truncated,
        );
      };
      // The status arrived in time, so a body still dribbling at the deadline is cut, not failed.
      onDeadline = () => respond(true);
      response.on('data', (chunk: Buffer) => {
        const room = MAX_RESPONSE_BYTES - size;
        chunks.push(chunk.subarray(0, room));
        size += Math.min(room, chunk.length);
        if (chunk.length > room) respond(true); // finish() destroys the socket: nothing more is read
      });
      response.on('end', () => respond(false));
      response.on('error', () => respond(true));
      response.on('close', () => respond(true));
    });
    request.end(options.body);
  });
}
