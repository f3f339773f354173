import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { appRouter } from '../routers/index.ts';
import { buildOpenApiDocument } from './document.ts';

/**
 * Every operation of the OpenAPI document is in a route table of the docs (docs/api.md, or the
 * doc of its part: webhooks.md, workflows.md …), so that an integrator reading the docs meets
 * every endpoint the document has. Path parameters are compared by place, not by name.
 */
const DOCS = new URL('../../../../docs/', import.meta.url);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** `/records/{id}/links/{linkId}` → `/records/{}/links/{}`. */
const shapeOf = (path: string) => path.replace(/^\/api\/v1(?=\/)/, '').replace(/\{[^}]*\}/g, '{}');

/** `METHOD /path` of every route table row of the docs: `| GET | `/api/v1/records` | … |`. */
function documentedRoutes(): Set<string> {
  const routes = new Set<string>();
  for (const name of readdirSync(DOCS).filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(new URL(name, DOCS), 'utf8');
    for (const match of text.matchAll(/^\|\s*(GET|PUT|POST|DELETE|PATCH)\s*\|\s*`([^`\s?]+)[^`]*`/gm))
      routes.add(`${match[1]} ${shapeOf(match[2] ?? '')}`);
  }
  return routes;
}

describe('the route tables of the docs', () => {
  it('name every operation of the OpenAPI document', () => {
    const doc = buildOpenApiDocument(appRouter, { baseUrl: '', version: '0.0.0' }) as unknown as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => METHODS.includes(method))
        .map((method) => `${method.toUpperCase()} ${shapeOf(path)}`),
    );
    expect(operations.length).toBeGreaterThan(50);
    const routes = documentedRoutes();
    expect(operations.filter((operation) => !routes.has(operation))).toEqual([]);
  });
});
