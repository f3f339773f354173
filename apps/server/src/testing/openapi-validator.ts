import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** The document is added to ajv under this id so that its `#/components/...` refs resolve. */
const DOC_ID = 'https://openapi.test/document.json';

interface DocumentedOperation {
  /** Upper case, e.g. `POST`. */
  method: string;
  /** Path template as in the document, e.g. `/records/{id}`. */
  path: string;
  operation: Json;
  /** Documented statuses, ascending. */
  statuses: number[];
}

export interface OpenApiValidator {
  operations: DocumentedOperation[];
  /** Follows `$ref`s from `node` to the object they name in the document. */
  resolve(node: unknown): Json;
  /**
   * What is wrong with this response according to the document; empty when it conforms. A
   * conforming response counts as exercising its operation and status (see `coverageGaps`).
   */
  validateResponse(
    method: string,
    pathTemplate: string,
    status: number,
    headers: Headers,
    body: unknown,
  ): string[];
  /**
   * The operation a request to `url` is for, found as a validator or a mock server finds it:
   * the operation's server (its own, its path item's, else the document's) and its path
   * template, joined both ways a tool may join them (appended, then resolved against
   * `documentUrl`, where the document was served; or resolved, then appended), must both
   * give the URL; a literal segment wins over a parameter. Throws when none or several match.
   */
  operationAt(method: string, url: string, documentUrl: string): DocumentedOperation;
  /** One line per operation that lacks a conforming success, or a documented status not in `ignore`. */
  coverageGaps(ignore: Iterable<number>): string[];
  /**
   * What is wrong with this JSON body of a `status` response according to the operation's
   * schema (the body alone: headers are not looked at); empty when it conforms.
   */
  validateResponseBody(method: string, pathTemplate: string, status: number, body: unknown): string[];
  /** What is wrong with `value` according to the document's component schema `name`; empty when it conforms. */
  validateComponent(name: string, value: unknown): string[];
  /** What is wrong with this JSON request body according to the operation's schema; empty when it conforms. */
  validateRequestBody(method: string, pathTemplate: string, body: unknown): string[];
  /** Problems of an event payload against its kind's entry in the document's `webhooks` section. */
  validateWebhookPayload(kind: string, payload: unknown): string[];
  /**
   * What is wrong with this query parameter's text according to its schema (a number or
   * integer parameter is read as a number when it looks like one); empty when it conforms.
   */
  validateQueryParameter(method: string, pathTemplate: string, name: string, value: string): string[];
}

const escapePointer = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
/** Stands for a path parameter while a template is joined to its server. */
const PARAMETER = 'PATH-PARAMETER';

export function createOpenApiValidator(doc: Json): OpenApiValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  // The OpenAPI top-level keys are not JSON Schema; `example` and `discriminator` are OpenAPI
  // schema annotations (the `oneOf` beside a discriminator does the validating).
  for (const keyword of [...Object.keys(doc), 'example', 'discriminator']) {
    if (!ajv.getKeyword(keyword)) ajv.addKeyword(keyword);
  }
  ajv.addSchema({ ...doc, $id: DOC_ID });

  /** The object at `pointer` after following refs, and the pointer it really lives at. */
  function at(pointer: string): { node: Json; pointer: string } {
    let node: unknown = doc;
    for (const token of pointer.split('/').slice(1)) {
      node = (node as Json | undefined)?.[token.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    const ref = (node as Json | undefined)?.$ref;
    if (typeof ref === 'string') {
      if (!ref.startsWith('#/')) throw new Error(`Only local $refs are supported, not ${ref}`);
      return at(ref.slice(1));
    }
    if (node === null || typeof node !== 'object') throw new Error(`Nothing at #${pointer}`);
    return { node: node as Json, pointer };
  }

  function check(pointer: string, value: unknown, what: string): string[] {
    const validate = ajv.getSchema(`${DOC_ID}#${pointer}`);
    if (!validate) return [`${what}: no schema at #${pointer}`];
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) => `${what}${e.instancePath || ''} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params)}`,
    );
  }

  const operations: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method)) continue;
      const statuses = Object.keys((operation as Json).responses as Json)
        .map(Number)
        .filter((s) => !Number.isNaN(s))
        .sort((a, b) => a - b);
      operations.push({ method: method.toUpperCase(), path, operation: operation as Json, statuses });
    }
  }

  /** An operation's URL patterns under `documentUrl`, one per way of joining server and path. */
  const patterns = new Map<string, Map<DocumentedOperation, RegExp[]>>();
  function urlPatterns(operation: DocumentedOperation, documentUrl: string): RegExp[] {
    const byOperation = patterns.get(documentUrl) ?? new Map<DocumentedOperation, RegExp[]>();
    patterns.set(documentUrl, byOperation);
    const known = byOperation.get(operation);
    if (known) return known;
    const item = (doc.paths as Record<string, Json>)[operation.path]!;
    const servers = (operation.operation.servers ?? item.servers ?? doc.servers ?? [{ url: '/' }]) as {
      url: string;
    }[];
    const marked = operation.path.replace(/\{[^}]+\}/g, PARAMETER);
    const joined = [
      new URL(`${servers[0]!.url}${marked}`, documentUrl).href,
      `${new URL(servers[0]!.url, documentUrl).href}${marked}`,
    ];
    const made = joined.map(
      (href) =>
        new RegExp(
          `^${href
            .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
            .split(PARAMETER)
            .join('[^/]+')}$`,
        ),
    );
    byOperation.set(operation, made);
    return made;
  }

  const seen = new Map<DocumentedOperation, Set<number>>();
  const exercised = (operation: DocumentedOperation, status: number) =>
    seen.set(operation, (seen.get(operation) ?? new Set()).add(status));

  return {
    operations,
    operationAt(method, url, documentUrl) {
      const target = new URL(url);
      const where = `${target.origin}${target.pathname}`;
      const found = operations.filter(
        (o) =>
          o.method === method.toUpperCase() &&
          urlPatterns(o, documentUrl).every((pattern) => pattern.test(where)),
      );
      const parameters = (o: DocumentedOperation) => (o.path.match(/\{/g) ?? []).length;
      const fewest = Math.min(...found.map(parameters));
      const best = found.filter((o) => parameters(o) === fewest);
      if (best.length !== 1) {
        const named = best.map((o) => `${o.method} ${o.path}`).join(', ') || 'none';
        throw new Error(`${method} ${where} matches ${best.length} operations of the document: ${named}`);
      }
      return best[0]!;
    },
    coverageGaps(ignore) {
      const skip = new Set(ignore);
      return operations.flatMap((operation) => {
        const got = seen.get(operation) ?? new Set<number>();
        const gaps: (number | string)[] = operation.statuses.filter((s) => !skip.has(s) && !got.has(s));
        if (![...got].some((s) => s < 300)) gaps.unshift('no success');
        return gaps.length ? [`${operation.method} ${operation.path}: ${gaps.join(', ')}`] : [];
      });
    },
    validateRequestBody(method, pathTemplate, body) {
      const pointer = `/paths/${escapePointer(pathTemplate)}/${method.toLowerCase()}/requestBody`;
      const requestBody = at(pointer);
      const content = requestBody.node.content as Json | undefined;
      if (!content?.['application/json']) return [`${method} ${pathTemplate} documents no JSON body`];
      return check(`${requestBody.pointer}/content/application~1json/schema`, body, 'body');
    },
    validateWebhookPayload(kind, payload) {
      const pointer = `/webhooks/${escapePointer(kind)}/post/requestBody/content/application~1json/schema`;
      return check(pointer, payload, kind);
    },
    validateQueryParameter(method, pathTemplate, name, value) {
      const pointer = `/paths/${escapePointer(pathTemplate)}/${method.toLowerCase()}/parameters`;
      const count = ((at(pointer).node as unknown as unknown[]) ?? []).length;
      for (let i = 0; i < count; i++) {
        const parameter = at(`${pointer}/${i}`);
        if (parameter.node.in !== 'query' || parameter.node.name !== name) continue;
        const type = (parameter.node.schema as Json | undefined)?.type;
        const numeric = (type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value);
        return check(`${parameter.pointer}/schema`, numeric ? Number(value) : value, `query ${name}`);
      }
      return [`query ${name} is not a parameter of ${method} ${pathTemplate}`];
    },
    resolve(node) {
      const ref = (node as Json).$ref;
      return typeof ref === 'string' ? at(ref.slice(1)).node : (node as Json);
    },
    validateComponent(name, value) {
      return check(`/components/schemas/${escapePointer(name)}`, value, name);
    },
    validateResponseBody(method, pathTemplate, status, body) {
      const operation = operations.find((o) => o.method === method.toUpperCase() && o.path === pathTemplate);
      if (!operation) return [`${method} ${pathTemplate} is not in the document`];
      if (!operation.statuses.includes(status)) return [`status ${status} is not documented`];
      const response = at(
        `/paths/${escapePointer(pathTemplate)}/${method.toLowerCase()}/responses/${status}`,
      );
      if (!(response.node.content as Json | undefined)?.['application/json'])
        return [`a ${status} response of ${method} ${pathTemplate} has no JSON body`];
      return check(`${response.pointer}/content/application~1json/schema`, body, 'body');
    },
    validateResponse(method, pathTemplate, status, headers, body) {
      const operationPointer = `/paths/${escapePointer(pathTemplate)}/${method.toLowerCase()}`;
      const operation = operations.find((o) => o.method === method.toUpperCase() && o.path === pathTemplate);
      if (!operation) return [`${method} ${pathTemplate} is not in the document`];
      const responses = operation.operation.responses as Json;
      const key = String(status) in responses ? String(status) : 'default' in responses ? 'default' : null;
      if (!key) {
        return [`status ${status} is not documented (documented: ${operation.statuses.join(', ')})`];
      }
      const response = at(`${operationPointer}/responses/${key}`);
      const problems: string[] = [];

      for (const name of Object.keys((response.node.headers ?? {}) as Json)) {
        const header = at(`${response.pointer}/headers/${escapePointer(name)}`);
        const value = headers.get(name);
        if (value === null) {
          if (header.node.required === true) problems.push(`header ${name} is missing`);
          continue;
        }
        const type = (header.node.schema as Json | undefined)?.type;
        const numeric = (type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value);
        problems.push(
          ...check(`${header.pointer}/schema`, numeric ? Number(value) : value, `header ${name}`),
        );
      }

      const content = response.node.content as Json | undefined;
      const contentType = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!content) {
        if (body !== undefined) problems.push('a body was sent but the response documents none');
        if (problems.length === 0) exercised(operation, status);
        return problems;
      }
      if (!(contentType in content)) {
        problems.push(`content type "${contentType}" is not documented (${Object.keys(content).join(', ')})`);
        return problems;
      }
      const schemaPointer = `${response.pointer}/content/${escapePointer(contentType)}/schema`;
      // A file (a job's CSV or NDJSON): documented as a string of its media type, not read here.
      if (contentType !== 'application/json' && (at(schemaPointer).node as Json).type === 'string') {
        if (problems.length === 0) exercised(operation, status);
        return problems;
      }
      if (body === undefined) problems.push('the body is missing or not JSON');
      else problems.push(...check(schemaPointer, body, 'body'));
      if (problems.length === 0) exercised(operation, status);
      return problems;
    },
  };
}
