import { describe, expect, it } from 'vitest';
import { convertCondition, newDraft, newLeaf, shownErrorPaths, toAction, toDraft } from './action-draft.ts';

/** A saved workflow's actions using every nesting and mode the builder has. */
const SAVED: Record<string, unknown>[] = [
  {
    type: 'BRANCH',
    name: 'big',
    if: {
      any: [
        { all: [{ left: '{{ trigger.body.total }}', operator: 'GREATER_THAN', right: 100 }] },
        { not: { left: '{{ trigger.body.country }}', operator: 'EXISTS' } },
      ],
    },
    then: [{ type: 'DELAY', until: '2026-12-01', at: '09:00', timezone: 'Europe/Berlin' }],
    else: [{ type: 'CREATE_DEAL', pipelineId: 'pl_1', amount: 12.5, currency: 'EUR' }],
  },
  {
    type: 'FOR_EACH',
    records: {
      folderId: 'fld_1',
      q: 'ada',
      filter: { field: 'title', op: 'contains', value: 'A' },
      sort: '-title',
    },
    continueOnError: true,
    actions: [{ type: 'CODE', name: 'line', source: 'return input.item;' }],
  },
  { type: 'FOR_EACH', items: [1, 2], actions: [{ type: 'DELAY', for: 'PT2H' }] },
  { type: 'APPROVAL', assigneeId: 'usr_1', timeout: 'P3D', onTimeout: 'APPROVE' },
  { type: 'CREATE_RECORD', folderId: 'fld_1', title: 'X', upsertBy: 'email', data: { company: 'Acme' } },
];

describe('the action builder’s drafts', () => {
  it('give back the actions they were made from, nested lists, modes and unshown parameters included', () => {
    expect(SAVED.map((a) => toAction(toDraft(a)))).toEqual(SAVED);
  });

  it('send only the parameters of the mode shown', () => {
    const delay = toDraft({ type: 'DELAY', for: 'PT1H' });
    delay.values.until = '2026-12-01';
    expect(toAction(delay)).toEqual({ type: 'DELAY', for: 'PT1H' });
    expect(toAction({ ...delay, mode: 'until' })).toEqual({ type: 'DELAY', until: '2026-12-01' });
  });

  it('send a branch with empty arms as `then: []`, and a ticked checkbox as true', () => {
    expect(toAction(newDraft('BRANCH'))).toEqual({
      type: 'BRANCH',
      if: { left: '', operator: 'EQUALS', right: '' },
      then: [],
    });
    const loop = {
      ...newDraft('FOR_EACH'),
      values: { items: '{{ trigger.body.lines }}', continueOnError: 'true' },
    };
    expect(toAction(loop)).toEqual({
      type: 'FOR_EACH',
      items: '{{ trigger.body.lines }}',
      continueOnError: true,
      actions: [],
    });
  });

  it('keep what was typed in a comparison when it becomes a group or a negation, and back', () => {
    const leaf = { ...newLeaf(), left: '{{ trigger.body.x }}' };
    const group = convertCondition(leaf, 'any');
    expect(group).toMatchObject({ kind: 'any', items: [leaf] });
    expect(convertCondition(convertCondition(group, 'not'), 'leaf')).toBe(leaf);
  });

  it('say which problems are shown at an input, and leave the others to the list above the form', () => {
    const drafts = SAVED.map(toDraft);
    const errors = {
      actions: 'must hold at most 50 actions',
      'actions.0.if.any.1.not': 'right is required for this operator',
      'actions.0.then.0.until': 'is not a date',
      'actions.0.else.0.pipelineId': 'not found',
      'actions.1.items': 'give either items or records',
      'actions.1.actions.0.name': '"line" names another step of the workflow',
      'actions.3.type': 'must be one of …',
      'actions.4.currency': 'is not a parameter of CREATE_RECORD',
    };
    expect(shownErrorPaths(drafts, 'actions', errors).sort()).toEqual(
      Object.keys(errors)
        .filter((p) => p !== 'actions.4.currency')
        .sort(),
    );
  });
});
