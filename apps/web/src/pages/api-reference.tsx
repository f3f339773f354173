import { useEffect, useState } from 'react';

// The reference renders the service's own OpenAPI document, with nothing loaded from elsewhere,
// so it works on a machine without internet and needs no key (docs/web-app.md, "Building and
// developing"; docs/api.md, "Requests and responses").

interface Schema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  format?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
  nullable?: boolean;
  example?: unknown;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
  security?: unknown[];
}

interface Document {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function ApiReferencePage() {
  const [doc, setDoc] = useState<Document | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    fetch('/api/v1/openapi.json')
      .then((res) => {
        if (!res.ok) throw new Error(`The OpenAPI document could not be loaded (${res.status})`);
        return res.json() as Promise<Document>;
      })
      .then(setDoc, (error: Error) => setProblem(error.message));
  }, []);
  if (problem) return <p className="problem">{problem}</p>;
  if (!doc) return <p className="hint">Loading the API reference…</p>;

  const byTag = new Map<string, { method: string; path: string; op: Operation }[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    // A path with a server of its own (a trigger URL, outside the base URL) is shown under it.
    const server = (item as { servers?: { url: string }[] }).servers?.[0]?.url ?? '';
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'Other';
      const list = byTag.get(tag) ?? [];
      byTag.set(tag, list);
      list.push({ method, path: `${server}${path}`, op });
    }
  }
  const schemas = doc.components?.schemas ?? {};
  return (
    <div className="shell reference">
      <nav className="sidebar" aria-label="Operations">
        <p className="brand">API reference</p>
        <ul>
          {[...byTag.keys()].map((tag) => (
            <li key={tag}>
              <a href={`#tag-${slug(tag)}`}>{tag}</a>
            </li>
          ))}
        </ul>
        <p>
          <a href="/">← Back to the app</a>
        </p>
      </nav>
      <main id="main">
        <h1>
          {doc.info.title} <small>{doc.info.version}</small>
        </h1>
        {doc.info.description ? (
          <p className="prose">
            <Prose text={doc.info.description} />
          </p>
        ) : null}
        <p>
          Base URL: <code>{doc.servers?.[0]?.url ?? '/api/v1'}</code> · machine-readable:{' '}
          <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>
        </p>
        {[...byTag.entries()].map(([tag, ops]) => (
          <section key={tag} aria-labelledby={`tag-${slug(tag)}`}>
            <h2 id={`tag-${slug(tag)}`}>{tag}</h2>
            {ops.map(({ method, path, op }) => (
              <article key={`${method} ${path}`} className="operation" id={`${method}-${slug(path)}`}>
                <h3>
                  <span className={`method ${method}`}>{method.toUpperCase()}</span> <code>{path}</code>
                </h3>
                {op.summary ? <p>{op.summary}</p> : null}
                {op.description ? (
                  <p className="hint prose">
                    <Prose text={op.description} />
                  </p>
                ) : null}
                {op.parameters && op.parameters.length > 0 ? (
                  <table>
                    <caption>Parameters</caption>
                    <thead>
                      <tr>
                        <th scope="col">Name</th>
                        <th scope="col">In</th>
                        <th scope="col">Type</th>
                        <th scope="col">Description</th>
                      </tr>
                    </thead>
                    <tbody>
                      {op.parameters.map((p) => (
                        <tr key={`${p.in}-${p.name}`}>
                          <td>
                            <code>{p.name}</code>
                            {p.required ? <span className="required"> required</span> : null}
                          </td>
                          <td>{p.in}</td>
                          <td>{p.schema ? typeName(p.schema, schemas) : ''}</td>
                          <td>
                            <Prose text={p.description ?? p.schema?.description ?? ''} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : null}
                {op.requestBody?.content?.['application/json']?.schema ? (
                  <details>
                    <summary>Request body</summary>
                    <SchemaView
                      schema={op.requestBody.content['application/json'].schema}
                      schemas={schemas}
                      depth={0}
                    />
                  </details>
                ) : null}
                <details>
                  <summary>Responses</summary>
                  <ul className="responses">
                    {Object.entries(op.responses ?? {}).map(([status, response]) => (
                      <li key={status}>
                        <strong>{status}</strong> {response.description}
                        {response.content?.['application/json']?.schema && status.startsWith('2') ? (
                          <SchemaView
                            schema={response.content['application/json'].schema}
                            schemas={schemas}
                            depth={0}
                          />
                        ) : null}
                      </li>
                    ))}
                  </ul>
                </details>
              </article>
            ))}
          </section>
        ))}
      </main>
    </div>
  );
}

/** Descriptions use Markdown's `code` spans; everything else is shown as plain text. */
function Prose({ text }: { text: string }) {
  const parts = text.split('`');
  return (
    <>{parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>))}</>
  );
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

function resolve(schema: Schema, schemas: Record<string, Schema>): { schema: Schema; name?: string } {
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    return { schema: schemas[name] ?? {}, name };
  }
  return { schema };
}

function typeName(schema: Schema, schemas: Record<string, Schema>): string {
  const { schema: s, name } = resolve(schema, schemas);
  if (name) return name;
  const variants = s.anyOf ?? s.oneOf;
  if (variants) return variants.map((v) => typeName(v, schemas)).join(' | ');
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const type = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'any');
  if (type === 'array' && s.items) return `${typeName(s.items, schemas)}[]`;
  return s.format ? `${type} (${s.format})` : type;
}

/** A schema as a nested list of its properties; named schemas open one level at a time. */
function SchemaView({
  schema,
  schemas,
  depth,
}: {
  schema: Schema;
  schemas: Record<string, Schema>;
  depth: number;
}) {
  const { schema: s } = resolve(schema, schemas);
  const target = s.type === 'array' && s.items ? resolve(s.items, schemas).schema : s;
  const variants = target.anyOf ?? target.oneOf;
  const object = variants?.map((v) => resolve(v, schemas).schema).find((v) => v.properties) ?? target;
  if (!object.properties || depth > 4) return <code className="type">{typeName(schema, schemas)}</code>;
  const required = new Set(object.required ?? []);
  return (
    <ul className="schema">
      {Object.entries(object.properties).map(([name, prop]) => {
        const resolved = resolve(prop, schemas).schema;
        const nested =
          resolved.properties ||
          (resolved.type === 'array' && resolved.items && resolve(resolved.items, schemas).schema.properties);
        return (
          <li key={name}>
            <code>{name}</code> <span className="type">{typeName(prop, schemas)}</span>
            {required.has(name) ? <span className="required"> required</span> : null}
            {prop.description || resolved.description ? (
              <span className="hint"> — {prop.description ?? resolved.description}</span>
            ) : null}
            {nested ? <SchemaView schema={prop} schemas={schemas} depth={depth + 1} /> : null}
          </li>
        );
      })}
    </ul>
  );
}
