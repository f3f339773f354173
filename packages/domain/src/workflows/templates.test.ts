import { describe, expect, it } from 'vitest';
import { hasTemplate, renderString, renderValue, type TemplateScope, templateProblems } from './templates.ts';

const scope: TemplateScope = {
  trigger: {
    body: { name: 'Ada', amount: 12.5, tags: ['a', 'b'], nested: { deep: true } },
    recordId: null,
    type: 'INCOMING_WEBHOOK',
  },
  record: { id: 'rec_1', title: 'Ada L.', data: { company: 'Engines' } },
  steps: { 0: { output: { id: 'deal_1', amount: '99.00' } }, 1: { output: null } },
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
      '{{ env.SECRET }} must start with trigger, record, steps, item or loop',
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

describe('[[ ]] templates, the spelling no-code tools leave alone', () => {
  it('reads the same paths as {{ }}: a whole value keeps its type, text is interpolated', () => {
    expect(renderString('[[ trigger.body.amount ]]', scope)).toBe(12.5);
    expect(renderString('[[trigger.body.tags]]', scope)).toEqual(['a', 'b']);
    expect(renderString('Hello [[ trigger.body.name ]], [[ record.data.company ]]', scope)).toBe(
      'Hello Ada, Engines',
    );
    expect(renderString('[[ trigger.body.nested ]]', scope)).toEqual({ deep: true });
    expect(renderString('Deal [[ steps.0.output.id ]] of [[ trigger.body.nested ]]', scope)).toBe(
      'Deal deal_1 of {"deep":true}',
    );
  });

  it('reads nested paths and array elements by number', () => {
    expect(renderString('[[ trigger.body.nested.deep ]]', scope)).toBe(true);
    expect(renderString('[[ trigger.body.tags.1 ]]', scope)).toBe('b');
    expect(renderString('[[ steps.0.output.amount ]]', scope)).toBe('99.00');
    expect(renderString('[[ record.data.company ]]', scope)).toBe('Engines');
  });

  it('tolerates the same whitespace as {{ }}: none, several spaces, tabs and line breaks', () => {
    for (const text of [
      '[[trigger.body.name]]',
      '[[   trigger.body.name   ]]',
      '[[\ttrigger.body.name\n]]',
      '{{trigger.body.name}}',
      '{{\ttrigger.body.name\n}}',
    ]) {
      expect(renderString(text, scope), text).toBe('Ada');
      expect(templateProblems(text, 0), text).toEqual([]);
    }
  });

  it('mixes both spellings in one string, and renders them alike inside objects and arrays', () => {
    expect(renderString('[[ trigger.body.name ]] / {{ trigger.body.name }}', scope)).toBe('Ada / Ada');
    expect(renderString('{{ record.title }} owes [[ steps.0.output.amount ]]', scope)).toBe(
      'Ada L. owes 99.00',
    );
    expect(templateProblems('[[ trigger.body.name ]] at {{ record.data.company }}', 0)).toEqual([]);
    expect(
      renderValue(
        { a: ['[[ record.id ]]', '{{ record.id }}', 3], b: { c: '[[ trigger.body.tags.0 ]]' } },
        scope,
      ),
    ).toEqual({ a: ['rec_1', 'rec_1', 3], b: { c: 'a' } });
  });

  it('renders a missing value as null alone and as nothing inside text', () => {
    expect(renderString('[[ trigger.body.phone ]]', scope)).toBeNull();
    expect(renderString('Phone: [[ trigger.body.phone ]].', scope)).toBe('Phone: .');
    expect(renderString('[[ trigger.body.constructor ]]', scope)).toBeNull();
    expect(renderString('[[ steps.1.output.id ]]', scope)).toBeNull();
  });

  it('reports the problems {{ }} would have, spelled as written', () => {
    expect(templateProblems('[[ env.SECRET ]]', 0)).toEqual([
      '[[ env.SECRET ]] must start with trigger, record, steps, item or loop',
    ]);
    expect(templateProblems('[[ record.title.toUpperCase() ]]', 0)).toEqual([
      '[[ record.title.toUpperCase() ]] is not a path of names and numbers separated by dots',
    ]);
    expect(templateProblems('[[ steps.2.output.id ]]', 2)).toEqual([
      '[[ steps.2.output.id ]] names step 2, which does not run before this one',
    ]);
    expect(templateProblems('[[ steps.1.output.id ]]', 2)).toEqual([]);
    expect(templateProblems('[[ steps.x ]]', 2)).toEqual([
      "[[ steps.x ]] names no step before this one (a step's number, or the name of a step it follows)",
    ]);
    const place = { topIndex: 2, names: new Set(['lookup']), inLoop: false };
    expect(templateProblems('[[ steps.lookup.output.id ]]', place)).toEqual([]);
    expect(templateProblems('[[ item.email ]]', place)).toEqual([
      '[[ item.email ]]: item is read only inside a FOR_EACH',
    ]);
    expect(templateProblems('{{ item.email }} {{ loop.index }}', { ...place, inLoop: true })).toEqual([]);
    expect(templateProblems('[[ steps.0.input ]]', 2)).toEqual([
      '[[ steps.0.input ]]: a step offers only its output',
    ]);
    expect(templateProblems('[[ ]]', 0)).toEqual(['has an empty [[ ]]']);
    expect(templateProblems('[[]]', 0)).toEqual(['has an empty [[ ]]']);
    expect(templateProblems('{{ [[ trigger.body.name ]] }}', 0)).toHaveLength(1);
    expect(templateProblems('[[ {{ trigger.body.name }} ]]', 0)).toHaveLength(1);
  });

  it('treats a [[ or ]] outside a template as {{ and }} are treated: it cannot be saved', () => {
    expect(templateProblems('Hi [[ trigger.body.name', 0)).toEqual(['has an unbalanced [[ or ]]']);
    expect(templateProblems('Hi ]] there', 0)).toEqual(['has an unbalanced [[ or ]]']);
    expect(templateProblems('Hi [[ trigger.body.name }}', 0)).toEqual([
      'has an unbalanced {{ or }}',
      'has an unbalanced [[ or ]]',
    ]);
    expect(templateProblems('[[1,2],[3,4]]', 0)).toHaveLength(1);
    // Single brackets are ordinary text, also right around a template.
    expect(templateProblems('a[0] and [x]', 0)).toEqual([]);
    expect(templateProblems('[[[ trigger.body.name ]]]', 0)).toEqual([]);
    expect(renderString('[[[ trigger.body.name ]]]', scope)).toBe('[Ada]');
    expect(renderString('{{{ trigger.body.name }}}', scope)).toBe('{Ada}');
    expect(renderString('a[0] and [x]', scope)).toBe('a[0] and [x]');
  });

  it('leaves a [[ … ]] that is not a path as written when a step runs (text saved before [[ ]] was a template)', () => {
    expect(renderString('See [[Main page]] and [[ trigger.body.name ]]', scope)).toBe(
      'See [[Main page]] and Ada',
    );
    expect(renderString('[[wiki]]', scope)).toBe('[[wiki]]');
    expect(renderString('[[]]', scope)).toBe('[[]]');
    expect(renderString('[[1,2]]', scope)).toBe('[[1,2]]');
  });

  it('counts either spelling as a template', () => {
    expect(hasTemplate('[[ trigger.body.amount ]]')).toBe(true);
    expect(hasTemplate('{{ trigger.body.amount }}')).toBe(true);
    expect(hasTemplate('https://example.com/[x]')).toBe(false);
    expect(hasTemplate('42')).toBe(false);
  });
});
