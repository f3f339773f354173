import type { IncomingMessage } from 'node:http';
import { assertStorableInput } from '@crm/api';
import { DomainError } from '@crm/domain';

/** Largest JSON body accepted (413 above: docs/api.md, "Requests and responses"). */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads and parses a JSON request body with the errors of docs/api.md, "Requests and
 * responses": 413 over 1 MiB (checked on Content-Length first, then while streaming), 415 for
 * another media type, 400 for malformed JSON, a body that is not an object, or one holding what
 * cannot be stored (NUL, lone surrogates, nesting deeper than MAX_INPUT_DEPTH: see
 * assertStorableInput). An empty body is `{}`.
 */
export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return (await readJsonBodyWithBytes(req)).value;
}

/** As readJsonBody, also giving the exact bytes received (what a signature covers). */
export async function readJsonBodyWithBytes(
  req: IncomingMessage,
): Promise<{ value: Record<string, unknown>; bytes: Buffer }> {
  const empty = { value: {}, bytes: Buffer.alloc(0) };
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const hasBody = declared > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return empty;
  const [mediaType = ''] = (req.headers['content-type'] ?? '').split(';');
  const type = mediaType.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    throw new DomainError(
      'UNSUPPORTED_MEDIA_TYPE',
      type
        ? `Content-Type ${type} is not supported; send application/json`
        : 'Send the body with Content-Type: application/json',
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      req.resume();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  const text = bytes.toString('utf8');
  if (text.trim() === '') return { value: {}, bytes };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const at = error instanceof SyntaxError ? /position (\d+)/.exec(error.message)?.[1] : undefined;
    throw new DomainError(
      'VALIDATION_FAILED',
      `The request body is not valid JSON${at ? ` (at character ${at})` : ''}`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new DomainError('VALIDATION_FAILED', 'The request body must be a JSON object');
  }
  // JSON.parse does not recurse, so even a body 20,000 levels deep arrives here to be refused.
  assertStorableInput(parsed);
  return { value: parsed as Record<string, unknown>, bytes };
}

function tooLarge() {
  return new DomainError(
    'PAYLOAD_TOO_LARGE',
    `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB)`,
  );
}
