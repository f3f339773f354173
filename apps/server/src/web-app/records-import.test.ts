import { createRecordInput, DomainError, validateCustomValues } from '@crm/domain';
import { describe, expect, it } from 'vitest';
import { csvCell, parseCsv, readCell, toCsv } from '../../../web/src/lib/csv.ts';
import { recordProblems, type ValueProblem } from '../../../web/src/lib/record-checks.ts';
import {
  guessMapping,
  type ImportField,
  importRows,
  matchNames,
  repeatedTargets,
  rowProblems,
  rowValues,
  targetsOf,
} from '../../../web/src/pages/records/import-rows.ts';

/**
 * The records page's CSV code outside the browser (docs/web-app.md, "CSV import and export"):
 * the browser's checks give exactly the server's verdicts, cells are escaped and guarded, and
 * an import sends its rows in batches and reports each refusal.
 */

const fields: ImportField[] = [
  { key: 'company', label: 'Company', type: 'TEXT' },
  { key: 'stage', label: 'Stage', type: 'SELECT', options: ['Lead', 'Customer'] },
  { key: 'score', label: 'Score', type: 'NUMBER' },
  { key: 'vip', label: 'VIP', type: 'BOOLEAN' },
  { key: 'born', label: 'Born', type: 'DATE' },
  { key: 'work', label: 'Work email', type: 'EMAIL' },
  { key: 'site', label: 'Site', type: 'URL' },
  { key: 'tags', label: 'Tags', type: 'MULTI_SELECT', options: ['a', 'b', 'c'] },
  {
    key: 'employer',
    label: 'Employer',
    type: 'RELATION',
    relation: { folderId: 'fld_companies', cardinality: 'ONE' },
  },
];

/** What the server refuses in a new record's values: its schema, then the custom values. */
function serverProblems(values: Record<string, unknown>): ValueProblem[] {
  const parsed = createRecordInput.safeParse({ folderId: 'fld_x', ...values });
  const problems: ValueProblem[] = parsed.success
    ? []
    : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  try {
    validateCustomValues(
      fields.map(({ label, ...f }) => ({ ...f, label, type: f.type as never })),
      (values.data as Record<string, unknown>) ?? {},
    );
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    problems.push(...(error.details ?? []));
  }
  return problems;
}

const sort = (p: ValueProblem[]) => [...p].sort((a, b) => a.path.localeCompare(b.path));

describe('the browser’s checks of a record', () => {
  const cases: Record<string, unknown>[] = [
    { title: 'Ada' },
    { title: '' },
    { title: '   ' },
    { title: 'x'.repeat(500) },
    { title: 'x'.repeat(501) },
    { title: 'Ada', email: 'ada@example.com' },
    { title: 'Ada', email: 'ada@example' },
    { title: 'Ada', email: 'ada example.com' },
    { title: 'Ada', email: `${'a'.repeat(320)}@example.com` },
    { title: 'Ada', email: "o'neil+crm@mail.example.org" },
    { title: 'Ada', phone: '+1 555 0100' },
    { title: 'Ada', phone: '1'.repeat(65) },
    ...[
      ['company', 'Acme'],
      ['company', 'x'.repeat(10_001)],
      ['stage', 'Lead'],
      ['stage', 'lead'],
      ['score', '42'],
      ['score', '-3.5'],
      ['score', '+7'],
      ['score', '1e5'],
      ['score', '1,000'],
      ['score', ' 42'],
      ['score', '.5'],
      ['vip', 'TRUE'],
      ['vip', 'false'],
      ['vip', 'yes'],
      ['vip', '1'],
      ['born', '2026-11-22'],
      ['born', '2026-02-30'],
      ['born', '2026-11-22T23:30:00-05:00'],
      ['born', '2026-11-22T10:00:00'],
      ['born', '22/11/2026'],
      ['work', 'me@work.example'],
      ['work', 'me@work'],
      ['site', 'https://example.com/a?b=c'],
      ['site', 'ftp://example.com'],
      ['site', 'example.com'],
      ['tags', ['a', 'c']],
      ['tags', ['a', 'a']],
      ['tags', ['d']],
      ['tags', 'a'],
      ['employer', { title: 'Acme' }],
      ['employer', { email: 'hello@acme.example' }],
      ['employer', { title: '  ' }],
      ['employer', { name: 'Acme' }],
      ['employer', 'Acme'],
      ['employer', 'rec_01jq3v6f6ve7s9t8m1k2c3d4e5'],
      ['nope', 'x'],
    ].map(([key, value]) => ({ title: 'Ada', data: { [key as string]: value } })),
  ];
  it.each(cases.map((c) => [JSON.stringify(c).slice(0, 80), c]))(
    'judges %s as the server does',
    (_, values) => {
      expect(sort(recordProblems(fields, values as never))).toEqual(sort(serverProblems(values as never)));
    },
  );
});

describe('CSV cells', () => {
  it('quotes commas, quotes and line breaks, and guards formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('one\ntwo')).toBe('"one\ntwo"');
    expect(csvCell('one\r\ntwo')).toBe('"one\r\ntwo"');
    for (const formula of ['=1+2', '+1 555', '-3', '@SUM(A1)', '\tx'])
      expect(csvCell(formula)).toBe(`'${formula}`);
    expect(csvCell('=HYPERLINK("x", "y")')).toBe(`"'=HYPERLINK(""x"", ""y"")"`);
    expect(csvCell('a=b')).toBe('a=b');
    expect(
      toCsv([
        ['a', 'b'],
        ['1', ''],
      ]),
    ).toBe('a,b\r\n1,\r\n');
  });

  it('reads back what it writes, the guard taken off', () => {
    const rows = [
      ['Title', 'Notes'],
      ['=1+2', 'a, "b"\nc'],
      ['-3', "'plain quote"],
    ];
    const parsed = parseCsv(`\uFEFF${toCsv(rows)}\r\n\r\n`);
    expect(parsed.columns).toEqual(['Title', 'Notes']);
    expect(parsed.rows.map((r) => r.map(readCell))).toEqual([
      ['=1+2', 'a, "b"\nc'],
      ['-3', "'plain quote"],
    ]);
  });

  it('pads short rows and names blank headers', () => {
    expect(parseCsv('a,,c\n1\n')).toEqual({ columns: ['a', 'Column 2', 'c'], rows: [['1', '', '']] });
  });
});

describe('mapping and sending an import', () => {
  const targets = targetsOf(fields);

  it('guesses each column’s field by key, label or a usual name, ignoring case and blanks', () => {
    expect(
      guessMapping(['Full Name', 'E-mail', 'PHONE', 'work_email', 'Score', 'score', 'Notes'], targets),
    ).toEqual(['title', 'email', 'phone', 'data.work', 'data.score', '', '']);
    expect(repeatedTargets(['title', 'email', 'title', ''])).toEqual(['title']);
  });

  it('makes a row’s values: trimmed, empty cells left out, lists split', () => {
    const mapping = ['title', 'email', 'data.tags', 'data.score', 'data.company'];
    expect(rowValues([' Ada ', '', 'a, c', "'-3", ''], mapping, targets)).toEqual({
      title: 'Ada',
      data: { tags: ['a', 'c'], score: '-3' },
    });
  });

  it('sends 100 rows a call, upserting those with an email, and reports refusals by row', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => [`Row ${i}`, i % 2 === 0 ? `r${i}@x.example` : '']);
    rows[7]![0] = '';
    const calls: { size: number; upsert: boolean }[] = [];
    const done: number[] = [];
    const result = await importRows({
      folderId: 'fld_x',
      rows,
      mapping: ['title', 'email'],
      targets,
      onProgress: (n) => done.push(n),
      send: async (input) => {
        calls.push({ size: input.items.length, upsert: input.upsert === 'email' });
        const data = input.items.map((item, index) =>
          item.title === ''
            ? {
                index,
                status: 400,
                error: {
                  code: 'VALIDATION_FAILED' as const,
                  message: 'Invalid input',
                  details: [{ path: 'title', message: 'must not be empty' }],
                  requestId: 'r',
                },
              }
            : { index, status: item.email === 'r0@x.example' ? 200 : 201, data: {} as never },
        );
        return { data, meta: { succeeded: 0, failed: 0 } };
      },
    });
    // Those with an email first, in file order, then the others: three calls, not six.
    expect(calls).toEqual([
      { size: 100, upsert: true },
      { size: 25, upsert: true },
      { size: 100, upsert: false },
      { size: 25, upsert: false },
    ]);
    expect(done).toEqual([100, 125, 225, 250]);
    expect(result).toEqual({
      created: 248,
      updated: 1,
      refused: [{ line: 9, row: ['', ''], reason: 'title must not be empty' }],
    });
  });

  it('sends a batch again after a 429 or 503, which wrote nothing, and stops on anything else', async () => {
    const rows = [['Ada', 'ada@x.example']];
    const waits: number[] = [];
    const failures = [429, 503];
    const answered = await importRows({
      folderId: 'fld_x',
      rows,
      mapping: ['title', 'email'],
      targets,
      retry: { statusOf: (e) => (e as { status: number }).status, wait: async (s) => void waits.push(s) },
      send: async () => {
        const status = failures.shift();
        if (status) throw Object.assign(new Error('busy'), { status });
        return { data: [{ index: 0, status: 201, data: {} as never }], meta: { succeeded: 1, failed: 0 } };
      },
    });
    expect(waits).toEqual([5, 10]);
    expect(answered.created).toBe(1);
    const stopped = importRows({
      folderId: 'fld_x',
      rows,
      mapping: ['title', 'email'],
      targets,
      retry: { statusOf: () => 400, wait: async () => {} },
      send: async () => {
        throw new Error('refused');
      },
    });
    await expect(stopped).rejects.toThrow('refused');
  });
});

describe('a column mapped to a relation', () => {
  const withRelations: ImportField[] = [
    ...fields,
    {
      key: 'projects',
      label: 'Projects',
      type: 'RELATION',
      relation: { folderId: 'fld_projects', cardinality: 'MANY' },
    },
  ];
  const targets = targetsOf(withRelations);

  it('offers a relation to one record by title and by email, and none to several', () => {
    expect(
      targets.filter((t) => t.key.startsWith('data.employer') || t.key.startsWith('data.projects')),
    ).toEqual([
      expect.objectContaining({ key: 'data.employer:title', label: 'Employer (by title)', by: 'title' }),
      expect.objectContaining({ key: 'data.employer:email', label: 'Employer (by email)', by: 'email' }),
    ]);
  });

  it('guesses by title from the field’s name, by email from the name and "email"', () => {
    expect(guessMapping(['Name', 'Employer'], targets)).toEqual(['title', 'data.employer:title']);
    expect(guessMapping(['Name', 'Employer email'], targets)).toEqual(['title', 'data.employer:email']);
    // One field, one column: by title and by email are the same field.
    expect(guessMapping(['Employer', 'Employer email'], targets)).toEqual(['data.employer:title', '']);
    expect(repeatedTargets(['data.employer:title', 'data.employer:email', 'title'])).toEqual([
      'data.employer:title',
      'data.employer:email',
    ]);
  });

  it('sends the linked record’s title or email for the server to resolve', () => {
    expect(rowValues(['Ada', ' Acme '], ['title', 'data.employer:title'], targets)).toEqual({
      title: 'Ada',
      data: { employer: { title: 'Acme' } },
    });
    expect(rowValues(['Ada', 'HELLO@acme.example'], ['title', 'data.employer:email'], targets)).toEqual({
      title: 'Ada',
      data: { employer: { email: 'HELLO@acme.example' } },
    });
    expect(rowValues(['Ada', ''], ['title', 'data.employer:title'], targets)).toEqual({ title: 'Ada' });
  });

  it('looks the names up 100 a call and reports those that match no record or several', async () => {
    const cells = [
      'Acme',
      'Nowhere',
      'Umbrella',
      "'=Acme",
      'Acme',
      ...Array.from({ length: 150 }, (_, i) => `Co ${i}`),
    ];
    const stored = [
      'Acme',
      'Umbrella',
      'Umbrella',
      'Umbrella',
      '=Acme',
      ...Array.from({ length: 150 }, (_, i) => `Co ${i}`),
    ];
    const calls: unknown[] = [];
    const matches = await matchNames({
      folderId: 'fld_companies',
      folderName: 'Companies',
      by: 'title',
      cells,
      query: async (input) => {
        calls.push(input.filter);
        const wanted = (input.filter as { value: string[] }).value;
        const data = stored.filter((t) => wanted.includes(t)).map((title) => ({ title, email: null }));
        return { data: data as never, meta: { nextCursor: null } as never };
      },
    });
    // Each name once, the formula guard taken off: 154 names in two calls.
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ field: 'title', op: 'in' });
    expect(matches.counts.get('Acme')).toBe(1);
    expect(matches.counts.get('=Acme')).toBe(1);
    expect(matches.counts.get('Nowhere')).toBe(0);
    expect(matches.counts.get('Umbrella')).toBe(2);
    const mapping = ['title', 'data.employer:title'];
    const problems = (row: string[]) =>
      rowProblems(row, mapping, targets, new Map([['data.employer:title', matches]]));
    expect(problems(['Ada', 'Acme'])).toEqual([]);
    expect(problems(['Ada', 'Nowhere'])).toEqual([
      { path: 'data.employer', message: 'no live record of folder Companies has the title "Nowhere"' },
    ]);
    expect(problems(['Ada', 'Umbrella'])).toEqual([
      {
        path: 'data.employer',
        message: 'several live records of folder Companies have the title "Umbrella"; give the id of one',
      },
    ]);
  });

  it('compares emails in any letter case, as the server does', async () => {
    const matches = await matchNames({
      folderId: 'fld_companies',
      folderName: 'Companies',
      by: 'email',
      cells: ['Hello@Acme.example'],
      query: async () => ({
        data: [{ title: 'Acme', email: 'hello@acme.example' }] as never,
        meta: { nextCursor: null } as never,
      }),
    });
    expect(matches.counts.get('hello@acme.example')).toBe(1);
  });
});
