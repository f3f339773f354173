import { describe, expect, it } from 'vitest';
import { renderString, renderValue, type TemplateScope, templateProblems } from './templates.ts';

const scope: TemplateScope = {
  trigger: {
    body: { name: 'Ada', amount: 12.5, tags: ['a', 'b'], nested: { deep: true } },
    recordId: null,
    type: 'INCOMING_WEBHOOK',
  },
  record: { id: 'rec_1', title: 'Ada L.', data: { company: 'Engines' } },
  steps: [{ output: { id: 'deal_1', amount: '99.00' } }, { output: null }],
};

describe('templates', () => {
  it('keeps the value of a string that is exactly one template, and interpolates text otherwise', () => {
    expect(renderString('{{ trigger.body.amount }}', scope)).toBe(12.5);
    expect(renderString('{{trigger.body.tags}}', scope)).toEqual(['a', 'b']);
    expect(renderString('Hello {{ trigger.body.name }}, {{ record.data.company }}', scope)).toBe(
      'Hello Ada, Engines',
    );
    expect(renderString('Deal {{ steps.0.output.id }} of {{ trigger.body.nested }}', scope)).toBe(
      'Deal deal_1 of {"deep":true}',
    );
  });

  it('renders a missing value as null alone and as nothing inside text', () => {
    expect(renderString('{{ trigger.body.phone }}', scope)).toBeNull();
    expect(renderString('Phone: {{ trigger.body.phone }}.', scope)).toBe('Phone: .');
    expect(renderString('{{ steps.1.output.id }}', scope)).toBeNull();
    expect(renderString('{{ trigger.body.name.length }}', scope)).toBeNull();
    expect(renderString('{{ trigger.body.constructor }}', scope)).toBeNull();
  });

  it('renders strings deep inside objects and arrays, leaving other values alone', () => {
    expect(
      renderValue({ a: ['{{ record.id }}', 3, true], b: { c: '{{ trigger.body.tags.1 }}' } }, scope),
    ).toEqual({
      a: ['rec_1', 3, true],
      b: { c: 'b' },
    });
  });

  it('reports unknown roots, bad paths, later steps and unbalanced braces', () => {
    expect(templateProblems('Hi {{ trigger.body.name }}', 0)).toEqual([]);
    expect(templateProblems('{{ env.SECRET }}', 0)).toEqual([
      '{{ env.SECRET }} must start with trigger, record or steps',
    ]);
    expect(templateProblems('{{ trigger.body["x"] }}', 0)).toHaveLength(1);
    expect(templateProblems('{{ record.title.toUpperCase() }}', 0)).toHaveLength(1);
    expect(templateProblems('{{ steps.2.output.id }}', 2)).toEqual([
      '{{ steps.2.output.id }} names step 2, which does not run before this one',
    ]);
    expect(templateProblems('{{ steps.1.output.id }}', 2)).toEqual([]);
    expect(templateProblems('{{ steps.x }}', 2)).toHaveLength(1);
    expect(templateProblems('{{ steps.0.input }}', 2)).toEqual([
      '{{ steps.0.input }}: a step offers only its output',
    ]);
    expect(templateProblems('{{ }}', 0)).toEqual(['has an empty {{ }}']);
    expect(templateProblems('Hi {{ trigger.body.name', 0)).toEqual(['has an unbalanced {{ or }}']);
    expect(templateProblems('Hi }} there', 0)).toEqual(['has an unbalanced {{ or }}']);
  });
});
