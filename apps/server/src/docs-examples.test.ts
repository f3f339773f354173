/**
 * Every JSON example of the docs is what the API takes or answers. Each ```json block follows
 * a line that says what it shows, and validates against that part of the OpenAPI document:
 *
 * - `<!-- example: request POST /records -->`, `<!-- example: response 200 GET /records/{id} -->`:
 *   an operation's request or response body (paths as the document writes them);
 * - `<!-- example: schema WorkflowAction -->`: a component schema (an action of a workflow);
 * - ` a body per line` after either: each line is an example of its own;
 * - `<!-- example: sketch -->`: a shape with parts left out (`…`), which is not JSON; only a
 *   block that holds `…` may be one.
 *
 * A block without such a line fails, so a new example cannot go unchecked.
 */
import { readFileSync } from 'node:fs';
import { appRouter, buildOpenApiDocument } from '@crm/api';
import { describe, expect, it } from 'vitest';
import { createOpenApiValidator } from './testing/openapi-validator.ts';

const DOCS = new URL('../../../docs/', import.meta.url);
const FILES = ['api.md', 'workflows.md', 'webhooks.md', 'jobs.md'];

interface Example {
  file: string;
  line: number;
  label: string | null;
  bodies: unknown[];
  /** Holds `…`: parts left out. */
  elided: boolean;
}

const LABEL =
  /^<!-- example: (?:(request|response (\d{3})) (GET|POST|PUT|PATCH|DELETE) (\S+)|schema (\w+)|(sketch))( a body per line)? -->$/;

/** The ```json blocks of a Markdown text, each with the label line above it (blank lines skipped). */
export function examplesIn(file: string, text: string): Example[] {
  const lines = text.split('\n');
  const found: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== '```json') continue;
    let above = i - 1;
    while (above >= 0 && lines[above]?.trim() === '') above--;
    const label = LABEL.test(lines[above]?.trim() ?? '') ? (lines[above]?.trim() ?? null) : null;
    const end = lines.indexOf('```', i + 1);
    const body = lines.slice(i + 1, end).join('\n');
    const perLine = label?.includes('a body per line') ?? false;
    const bodies =
      !label || label.endsWith(' sketch -->')
        ? []
        : perLine
          ? body
              .split('\n')
              .filter((line) => line.trim() !== '')
              .map((line) => JSON.parse(line) as unknown)
          : [JSON.parse(body) as unknown];
    found.push({ file, line: i + 1, label, bodies, elided: body.includes('…') });
    i = end;
  }
  return found;
}

describe('the JSON examples of the docs', () => {
  const doc = buildOpenApiDocument(appRouter, { baseUrl: 'http://crm.test', version: '0.0.0' });
  const validator = createOpenApiValidator(doc as unknown as Record<string, unknown>);
  const examples = FILES.flatMap((file) => examplesIn(file, readFileSync(new URL(file, DOCS), 'utf8')));

  it('each name their operation', () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
    expect(examples.filter((e) => !e.label).map((e) => `${e.file}:${e.line}`)).toEqual([]);
    const sketches = examples.filter((e) => e.label?.endsWith(' sketch -->'));
    expect(sketches.filter((e) => !e.elided).map((e) => `${e.file}:${e.line}`)).toEqual([]);
  });

  it('each validate against the schema of their operation', () => {
    const problems = examples.flatMap((example) => {
      const match = LABEL.exec(example.label ?? '');
      if (!match) return [];
      const [, kind, status, method = '', path = '', component] = match;
      return example.bodies.flatMap((body) =>
        (component
          ? validator.validateComponent(component, body)
          : kind === 'request'
            ? validator.validateRequestBody(method, path, body)
            : validator.validateResponseBody(method, path, Number(status), body)
        ).map((problem) => `${example.file}:${example.line} ${component ?? `${method} ${path}`}: ${problem}`),
      );
    });
    expect(problems).toEqual([]);
  });

  it('finds what is wrong with a planted example', () => {
    const [planted] = examplesIn(
      'planted.md',
      '<!-- example: response 200 GET /pipelines/{id}/summary -->\n\n```json\n{ "data": { "count": "three" } }\n```\n',
    );
    expect(planted?.label).not.toBeNull();
    expect(
      validator.validateResponseBody('GET', '/pipelines/{id}/summary', 200, planted?.bodies[0]),
    ).not.toEqual([]);
    expect(validator.validateComponent('WorkflowAction', { type: 'DELAY', for: 5 })).not.toEqual([]);
    expect(validator.validateComponent('WorkflowAction', { type: 'DELAY', for: 'PT5M' })).toEqual([]);
  });
});
