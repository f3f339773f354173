import type { RunAction, StepRecord, StepRecords } from '@crm/domain';
import { describe, expect, it } from 'vitest';
import { type LoopProgress, nextStep, stepOutputs } from './plan.ts';

const done = (path: string, output: unknown = null, name: string | null = null): StepRecord => ({
  path,
  name,
  action: 'X',
  status: 'SUCCEEDED',
  input: null,
  output,
  error: null,
  attempts: 1,
  nextAttemptAt: null,
  resumeAt: null,
  startedAt: null,
  finishedAt: null,
  seq: 0,
});

const recordsOf = (...records: StepRecord[]): StepRecords => new Map(records.map((r) => [r.path, r]));

const tree: RunAction[] = [
  { type: 'CODE', name: 'first', source: '' },
  {
    type: 'FOR_EACH',
    name: 'loop',
    items: '{{ trigger.body.items }}',
    continueOnError: true,
    actions: [
      { type: 'CODE', name: 'inner', source: '' },
      {
        type: 'BRANCH',
        name: 'check',
        if: { left: 1, operator: 'EQUALS', right: 1 },
        then: [{ type: 'CODE', name: 'deep', source: '' }],
      },
    ],
  },
  { type: 'CODE', source: '' },
];

describe('the plan read from a run’s records', () => {
  it('goes item by item through a loop, into the arm a branch chose, and past failed items with continueOnError', () => {
    const loop = { ...done('1'), status: 'RUNNING' as const, input: { items: ['a', 'b', 'c'] } };
    const failed = { ...done('1.items.1.0'), status: 'FAILED' as const, error: 'no' };
    const records = recordsOf(
      done('0'),
      loop,
      done('1.items.0.0'),
      done('1.items.0.1', { passed: true }),
      done('1.items.0.1.then.0'),
      failed,
    );
    const progress: LoopProgress = new Map();
    expect(nextStep(tree, records, progress)).toMatchObject({
      kind: 'step',
      path: '1.items.2.0',
      loop: { item: 'c', index: 2 },
    });
    expect(progress.get('1')).toEqual({ next: 2, failed: 1 });
    records.set('1.items.2.0', done('1.items.2.0'));
    records.set('1.items.2.1', done('1.items.2.1', { passed: false }));
    expect(nextStep(tree, records, progress)).toMatchObject({
      kind: 'loop-done',
      path: '1',
      count: 3,
      failed: 1,
    });
    // A second walk of the same job starts where the first saw the loop done.
    expect(progress.get('1')).toEqual({ next: 3, failed: 1 });
    records.set('1', done('1', { count: 3, failed: 1 }));
    expect(nextStep(tree, records, progress)).toMatchObject({ kind: 'step', path: '2' });
    records.set('2', done('2'));
    expect(nextStep(tree, records, progress)).toEqual({ kind: 'done' });
  });

  it('reads named steps where the reader is: its own item inside a loop, nothing of a loop from outside it', () => {
    const records = recordsOf(
      done('0', 'one', 'first'),
      done('1', { count: 2, failed: 0 }, 'loop'),
      done('1.items.0.0', 'inner-0', 'inner'),
      done('1.items.1.0', 'inner-1', 'inner'),
      done('1.items.1.1.then.0', 'deep-1', 'deep'),
    );
    const inItem1 = stepOutputs(tree, records, '1.items.1.1');
    expect(inItem1).toMatchObject({
      0: { output: 'one' },
      first: { output: 'one' },
      loop: { output: { count: 2, failed: 0 } },
      inner: { output: 'inner-1' },
      deep: { output: 'deep-1' },
    });
    expect(stepOutputs(tree, records, '1.items.0.1')).toMatchObject({ inner: { output: 'inner-0' } });
    expect(stepOutputs(tree, records, '1.items.0.1').deep).toBeUndefined();
    const after = stepOutputs(tree, records, '2');
    expect(after.inner).toBeUndefined();
    expect(after.first).toEqual({ output: 'one' });
  });
});
