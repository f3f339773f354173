import { DomainError, errorCodes, isRefusal } from '@crm/domain';
import { TRPCError } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ApiErrorCode,
  apiErrorCodes,
  errorCodeMappings,
  errorHeaders,
  RequestError,
  type TransportErrorCode,
  toApiError,
  toErrorResponse,
  toTRPCError,
  transportErrorCodes,
} from './errors.ts';

const isTransportCode = (code: ApiErrorCode): code is TransportErrorCode =>
  (transportErrorCodes as readonly string[]).includes(code);

const errorWith = (code: ApiErrorCode) =>
  isTransportCode(code) ? new RequestError(code, 'x') : new DomainError(code, 'x');

describe('the error registry', () => {
  it("keeps the transport's codes out of the domain's registry", () => {
    for (const code of transportErrorCodes) expect(errorCodes as readonly string[]).not.toContain(code);
    expect([...apiErrorCodes].sort()).toEqual([...errorCodes, ...transportErrorCodes].sort());
  });

  it("maps every code, the domain's and the transport's, to a distinct HTTP status and a real tRPC code", () => {
    const statuses = new Set<number>();
    for (const code of apiErrorCodes) {
      const mapping = errorCodeMappings[code];
      expect(mapping, `${code} has no mapping`).toBeDefined();
      expect(mapping.status, code).toBeGreaterThanOrEqual(400);
      expect(statuses.has(mapping.status), `${code} reuses ${mapping.status}`).toBe(false);
      statuses.add(mapping.status);
      // A refusal is the caller's to change (4xx); a failure of the service is a 5xx.
      expect(mapping.status < 500, code).toBe(isTransportCode(code) || isRefusal(code));
      expect(TRPC_ERROR_CODES_BY_KEY).toHaveProperty(mapping.trpc);
      const trpc = toTRPCError(errorWith(code));
      expect(trpc.code).toBe(mapping.trpc);
      expect(toApiError(trpc).code).toBe(code);
      expect(toErrorResponse(errorWith(code), 'r').status).toBe(mapping.status);
    }
  });

  it('turns the data of an error into headers: Retry-After, the challenge of a 401, the version of a 412', () => {
    expect(errorHeaders(new DomainError('RATE_LIMITED', 'x', { retryAfterSeconds: 7 }))).toEqual({
      'Retry-After': '7',
    });
    expect(errorHeaders(new DomainError('UNAUTHORIZED', 'x', { challenge: { scheme: 'Bearer' } }))).toEqual({
      'WWW-Authenticate': 'Bearer',
    });
    const metadata = 'https://crm.example/.well-known/oauth-protected-resource/mcp';
    const challenged = new DomainError('UNAUTHORIZED', 'x', {
      challenge: { scheme: 'Bearer', resourceMetadata: metadata },
    });
    expect(toErrorResponse(challenged, 'r').headers).toEqual({
      'WWW-Authenticate': `Bearer resource_metadata="${metadata}"`,
    });
    expect(errorHeaders(new RequestError('PRECONDITION_FAILED', 'x', { currentVersion: '"v2"' }))).toEqual({
      ETag: '"v2"',
    });
    expect(errorHeaders(new DomainError('NOT_FOUND', 'x'))).toEqual({});
  });

  it('writes the REST error body and never leaks what an unexpected error said', () => {
    const leaked = new Error('relation "records" does not exist at select * from records');
    const response = toErrorResponse(leaked, 'req-1');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      error: { code: 'INTERNAL', message: 'Internal error', requestId: 'req-1' },
    });
    const wrapped = toErrorResponse(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: leaked }), 'req-2');
    expect(JSON.stringify(wrapped.body)).not.toContain('relation');
  });

  it('turns an unreachable database into 503 with Retry-After', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    for (const error of [refused, new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: refused })]) {
      const response = toErrorResponse(error, 'r');
      expect(response.status).toBe(503);
      expect(response.body.error.code).toBe('UNAVAILABLE');
      expect(Number(response.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
    }
  });

  it('answers a transaction aborted by a deadlock or a serialization failure with a 409 to retry, not a 500', () => {
    for (const state of ['40P01', '40001']) {
      const aborted = Object.assign(new Error('deadlock detected'), { code: state });
      const wrapped = new TRPCError({
        code: 'INTERNAL_SERVER_ERROR',
        cause: new Error('query', { cause: aborted }),
      });
      for (const error of [aborted, wrapped]) {
        const response = toErrorResponse(error, 'r');
        expect(response.status).toBe(409);
        expect(response.body.error).toMatchObject({
          code: 'CONFLICT',
          message: expect.stringContaining('send it again'),
        });
        expect(response.headers['Retry-After']).toBe('1');
        expect(JSON.stringify(response.body)).not.toContain('deadlock');
      }
    }
  });

  it('does not take a client hanging up for a database outage', () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    const response = toErrorResponse(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: aborted }), 'r');
    expect(response.status).toBe(400);
  });

  it('lists each invalid field of a zod failure, unknown keys by name', () => {
    const schema = z.strictObject({ title: z.string(), count: z.number() });
    const result = schema.safeParse({ count: 'x', extra: 1 });
    const domain = toApiError(result.error);
    expect(domain.code).toBe('VALIDATION_FAILED');
    expect(domain.details).toEqual([
      { path: 'title', message: 'is required' },
      { path: 'count', message: 'must be of type number' },
      { path: 'extra', message: 'is not a known field' },
    ]);
  });
});
