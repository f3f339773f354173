import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { proceduresOf } from './internals/trpc.ts';
import { appRouter } from './routers/index.ts';
import { declaredOutput } from './trpc.ts';

const procedures = proceduresOf(appRouter).map((entry) => [entry.path, entry] as const);

/** Kinds of schema whose parse may return something other than the value it was given. */
const CHANGING = new Set(['transform', 'pipe', 'default', 'prefault', 'catch', 'success']);

/** The paths (inside `schema`) of every part whose parse could change a conforming value. */
function changingParts(schema: unknown, path = '', seen = new Set<unknown>()): string[] {
  const zod = (schema as { _zod?: { def: Record<string, unknown> } })?._zod;
  if (!zod || seen.has(schema)) return [];
  seen.add(schema);
  const def = zod.def;
  const found: string[] = CHANGING.has(def.type as string) ? [`${path || '(root)'}: ${def.type}`] : [];
  const visit = (value: unknown, at: string) => {
    if (!Array.isArray(value)) {
      found.push(...changingParts(value, at, seen));
      return;
    }
    for (const [i, item] of value.entries()) found.push(...changingParts(item, `${at}[${i}]`, seen));
  };
  for (const [key, value] of Object.entries(def)) {
    if (key === 'shape' && value && typeof value === 'object') {
      for (const [name, field] of Object.entries(value)) visit(field, `${path}.${name}`);
    } else if (key === 'getter' && typeof value === 'function') {
      visit((value as () => unknown)(), `${path}(lazy)`);
    } else {
      visit(value, path);
    }
  }
  return found;
}

describe('declared outputs', () => {
  it('every procedure declares its output and none parses its answers again', () => {
    expect(procedures.length).toBeGreaterThan(50);
    for (const [name, procedure] of procedures) {
      expect(procedure.output, name).toBeDefined();
      expect(
        procedure.middlewares.filter((m) => m._type === 'output').length,
        `${name} uses .output(): use .concat(declaredOutput(schema))`,
      ).toBe(0);
    }
  });

  it('no output schema transforms, defaults or replaces what it parses', () => {
    const changing = procedures.flatMap(([name, procedure]) =>
      changingParts(procedure.output).map((part) => `${name} ${part}`),
    );
    expect(changing).toEqual([]);
  });

  it('finds the parts that would change a value', () => {
    const schema = z.object({
      a: z.string().transform((s) => s.length),
      b: z.array(z.object({ c: z.number().default(1) })),
      d: z.lazy(() => z.string().catch('x')),
    });
    expect(changingParts(schema)).toEqual(['.a: pipe', '.a: transform', '.b.c: default', '.d(lazy): catch']);
  });

  it('declaredOutput gives the schema and no middleware', () => {
    const schema = z.object({ id: z.string() });
    const builder = declaredOutput(schema);
    expect(builder._def.output).toBe(schema);
    expect(builder._def.middlewares).toEqual([]);
  });
});
