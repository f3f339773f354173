import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fittingPage, invalidArguments, MAX_ANSWER_CHARS } from './answer.ts';
import { TOOLS } from './server.ts';

describe('fittingPage', () => {
  const items = Array.from({ length: 50 }, (_, i) => ({ id: i, text: 'x'.repeat(1_500) }));
  /** A page of `limit` items from `from`, with the cursor of what follows. */
  const read = (from: number) => async (limit: number) => ({
    items: items.slice(from, from + limit),
    nextCursor: from + limit < items.length ? String(from + limit) : null,
  });

  it('halves the page until it fits, its cursor naming exactly what was left out', async () => {
    const page = await fittingPage(50, read(0));
    expect(JSON.stringify(page).length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
    expect(page.items.length).toBe(12);
    expect(page.nextCursor).toBe('12');
  });

  it('keeps a page that fits as it is', async () => {
    const page = await fittingPage(5, read(45));
    expect(page).toEqual({ items: items.slice(45), nextCursor: null });
  });

  it('cuts the long texts of a single item too long to send, and says so', async () => {
    const huge = async () => ({ items: [{ notes: 'y'.repeat(60_000) }], nextCursor: null });
    const page = await fittingPage(1, huge);
    expect(page.truncated).toBe(true);
    expect(page.items[0]?.notes).toMatch(/^y{1000}…\(cut\)$/);
  });
});

describe('invalidArguments', () => {
  const schema = z.strictObject({
    id: z.string().describe('Record id (rec_…).'),
    priority: z.enum(['LOW', 'HIGH']).optional(),
  });
  const text = (args: unknown) => {
    const parsed = schema.safeParse(args);
    if (parsed.success) throw new Error('expected a refusal');
    return (invalidArguments('get_thing', schema, parsed.error).content[0] as { text: string }).text;
  };

  it('says a missing argument is required, with its description', () => {
    expect(text({})).toContain('- id: required (string). Record id (rec_…).');
  });

  it('lists the values an enum takes', () => {
    expect(text({ id: 'x', priority: 'NOW' })).toMatch(/- priority: .*"LOW"\|"HIGH"/);
  });

  it('names an unknown argument and the arguments there are', () => {
    expect(text({ id: 'x', depth: 1 })).toContain(
      '- depth: not an argument of get_thing; it takes id, priority',
    );
  });
});

describe('the tool set', () => {
  it('has at most 20 tools, unique names, and input schemas that are plain objects', () => {
    expect(TOOLS.length).toBeLessThanOrEqual(20);
    expect(new Set(TOOLS.map((t) => t.name)).size).toBe(TOOLS.length);
    for (const t of TOOLS) {
      const json = z.toJSONSchema(t.input, { io: 'input' }) as Record<string, unknown>;
      expect(json.type, t.name).toBe('object');
      for (const key of ['oneOf', 'anyOf', 'allOf']) expect(json, t.name).not.toHaveProperty(key);
      expect(t.scopes.length, t.name).toBeGreaterThan(0);
    }
  });
});
