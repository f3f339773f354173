import { describe, expect, it } from 'vitest';
import { workflowWarnings } from './warnings.ts';

const pathsOf = (actions: Record<string, unknown>[]) => workflowWarnings(actions).map((w) => w.path);

describe('warnings on save: values another tool may have filled in', () => {
  it('warns about "undefined" and "null" as the whole value of any parameter, deep in a body too', () => {
    const warnings = workflowWarnings([
      { type: 'CREATE_RECORD', folderId: 'fld_1', title: 'undefined', email: 'null' },
      { type: 'ASSIGN_OWNER', ownerId: 'undefined' },
      {
        type: 'HTTP_REQUEST',
        url: 'https://example.com/x',
        body: { lead: { email: ' undefined ', id: 'null' } },
      },
    ]);
    expect(warnings).toEqual([
      { path: 'actions.0.title', message: expect.stringMatching(/^is "undefined": .*\[\[ … \]\]$/) },
      { path: 'actions.0.email', message: expect.stringMatching(/^is the text "null": /) },
      { path: 'actions.1.ownerId', message: expect.stringMatching(/^is "undefined"/) },
      { path: 'actions.2.body.lead.email', message: expect.stringMatching(/^is "undefined"/) },
      { path: 'actions.2.body.lead.id', message: expect.stringMatching(/^is the text "null"/) },
    ]);
  });

  it('warns about text holding "undefined" or "[object Object]"', () => {
    const warnings = workflowWarnings([
      { type: 'CREATE_TASK', title: 'Call undefined' },
      { type: 'ADD_COMMENT', text: 'Order: [object Object]' },
      { type: 'HTTP_REQUEST', url: 'https://example.com/users/undefined/orders' },
    ]);
    expect(warnings).toEqual([
      { path: 'actions.0.title', message: expect.stringMatching(/^contains "undefined": /) },
      { path: 'actions.1.text', message: expect.stringMatching(/^contains "\[object Object\]": /) },
      { path: 'actions.2.url', message: expect.stringMatching(/^contains "undefined": /) },
    ]);
  });

  it('warns about an empty parameter, custom-field value or header value', () => {
    expect(
      pathsOf([
        { type: 'CREATE_RECORD', folderId: 'fld_1', title: ' ', email: '', phone: '', data: { company: '' } },
        { type: 'CREATE_DEAL', pipelineId: 'pl_1', title: '', currency: '', closeDate: '' },
        { type: 'CREATE_TASK', title: 'Call', dueAt: '' },
        { type: 'HTTP_REQUEST', url: 'https://example.com/x', headers: { 'X-Lead': '' } },
        { type: 'CONDITION', left: '', operator: 'EQUALS', right: 'DE' },
      ]),
    ).toEqual([
      'actions.0.title',
      'actions.0.email',
      'actions.0.phone',
      'actions.0.data.company',
      'actions.1.title',
      'actions.1.currency',
      'actions.1.closeDate',
      'actions.2.dueAt',
      'actions.3.headers.X-Lead',
      'actions.4.left',
    ]);
  });

  it('says that an empty UPDATE_RECORD email or phone clears it, and that null means no value on purpose', () => {
    const warnings = workflowWarnings([
      { type: 'UPDATE_RECORD', email: '', phone: 'x', data: { company: '' } },
    ]);
    expect(warnings).toEqual([
      {
        path: 'actions.0.email',
        message: expect.stringMatching(/^is empty, which clears it: .*give null to clear it/),
      },
      {
        path: 'actions.0.data.company',
        message: expect.stringMatching(/^is empty: .*give null for a field without a value/),
      },
    ]);
    expect(
      workflowWarnings([{ type: 'UPDATE_RECORD', email: null, phone: null, data: { company: null } }]),
    ).toEqual([]);
  });

  it('warns about a header value ending in a space ("Bearer " lost its token)', () => {
    expect(
      workflowWarnings([
        { type: 'HTTP_REQUEST', url: 'https://example.com/x', headers: { Authorization: 'Bearer ' } },
      ]),
    ).toEqual([
      { path: 'actions.0.headers.Authorization', message: expect.stringMatching(/^ends in a space: /) },
    ]);
  });

  it('warns about an empty CONDITION right side only where comparing with "" makes no sense', () => {
    const condition = (operator: string, right: unknown) => ({
      type: 'CONDITION',
      left: '[[ trigger.body.country ]]',
      operator,
      right,
    });
    expect(
      pathsOf([
        condition('CONTAINS', ''),
        condition('NOT_CONTAINS', ' '),
        condition('GREATER_THAN', ''),
        condition('LESS_THAN', ''),
        condition('EQUALS', ''),
        condition('NOT_EQUALS', ''),
      ]),
    ).toEqual(['actions.0.right', 'actions.1.right', 'actions.2.right', 'actions.3.right']);
  });

  it('gives no warning for ordinary values', () => {
    expect(
      workflowWarnings([
        {
          type: 'CREATE_RECORD',
          folderId: 'fld_1',
          title: '[[ trigger.body.name ]]',
          email: '{{ trigger.body.email }}',
          data: { company: 'Undefined Behaviour Ltd', note: 'nullable, undefinedness', size: 0, vip: false },
          upsertBy: 'email',
        },
        { type: 'CREATE_TASK', title: 'Call [[ record.title ]]', dueInDays: 1, priority: 'HIGH' },
        { type: 'ADD_COMMENT', text: 'Nothing is null here, and a[0] is fine' },
        { type: 'UPDATE_RECORD', phone: null, data: { company: null } },
        {
          type: 'HTTP_REQUEST',
          method: 'POST',
          url: 'https://hooks.example.com/new-lead',
          headers: { Authorization: 'Bearer [[ trigger.body.token ]]', 'X-Empty-Ok': 'yes' },
          body: { email: '[[ record.email ]]', note: '', tags: [], matrix: [[1, 2]], nothing: null },
        },
        { type: 'CONDITION', left: '[[ trigger.body.country ]]', operator: 'EQUALS', right: '' },
        { type: 'CONDITION', left: '{{ trigger.body.tags }}', operator: 'EXISTS' },
        { type: 'CONDITION', left: 0, operator: 'LESS_THAN', right: 1 },
        { type: 'ADD_COMMENT', text: 'Flag: [[ trigger.body.undefined ]] {{ record.data.null }}' },
      ]),
    ).toEqual([]);
  });
});
