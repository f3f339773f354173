import { type FormEvent, useEffect, useState } from 'react';
import {
  Field,
  formatInstant,
  Loading,
  PageHeader,
  Pager,
  ProblemMessage,
  usePager,
} from '../lib/components.tsx';
import { Link, navigate } from '../lib/router.tsx';
import { trpc } from '../lib/trpc.ts';
import { useData, useSubmit } from '../lib/use-data.ts';

const PAGE_SIZE = 25;

/** Folders on the left, the chosen folder's records with search and paging on the right. */
export function RecordsPage() {
  const folders = useData(() => trpc.folders.list.query({ pageSize: 200 }), []);
  const [folderId, setFolderId] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const pager = usePager();
  useEffect(() => {
    if (!folderId && folders.data?.data[0]) setFolderId(folders.data.data[0].id);
  }, [folders.data, folderId]);
  const records = useData(
    () =>
      folderId
        ? trpc.records.list.query({
            folderId,
            pageSize: PAGE_SIZE,
            cursor: pager.cursor,
            ...(applied ? { search: applied } : {}),
          })
        : Promise.resolve(undefined),
    [folderId, applied, pager.cursor],
  );
  const folder = folders.data?.data.find((f) => f.id === folderId);
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    pager.reset();
    setApplied(search.trim());
  };
  return (
    <>
      <PageHeader title="Records" />
      <ProblemMessage problem={folders.problem} />
      <div className="split">
        <nav aria-label="Folders" className="folders">
          <h2>Folders</h2>
          {folders.data ? (
            <ul>
              {folders.data.data.map((f) => (
                <li key={f.id}>
                  <button
                    type="button"
                    className="link"
                    aria-current={f.id === folderId ? 'true' : undefined}
                    onClick={() => {
                      pager.reset();
                      setFolderId(f.id);
                    }}
                  >
                    {f.name}
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <Loading what="folders" />
          )}
        </nav>
        <section aria-label={folder ? `Records in ${folder.name}` : 'Records'} className="grow">
          <search>
            <form onSubmit={onSearch} className="inline">
              <Field
                label="Search"
                type="search"
                placeholder="Title, email, phone or text field"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
              />
              <button type="submit">Search</button>
            </form>
          </search>
          <ProblemMessage problem={records.problem} />
          {records.data ? (
            records.data.data.length === 0 ? (
              <p>{applied ? `No records match “${applied}”.` : 'No records in this folder yet.'}</p>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th scope="col">Title</th>
                    <th scope="col">Email</th>
                    <th scope="col">Phone</th>
                    {folder?.fields.map((f) => (
                      <th scope="col" key={f.key}>
                        {f.label}
                      </th>
                    ))}
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {records.data.data.map((r) => (
                    <tr key={r.id}>
                      <td>
                        <Link to={`/records/${r.id}`}>{r.title}</Link>
                      </td>
                      <td>{r.email ?? ''}</td>
                      <td>{r.phone ?? ''}</td>
                      {folder?.fields.map((f) => (
                        <td key={f.key}>{formatValue(r.data[f.key])}</td>
                      ))}
                      <td>{formatInstant(r.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          ) : (
            <Loading what="records" />
          )}
          {records.data ? <Pager pager={pager} nextCursor={records.data.meta.nextCursor} /> : null}
          {folderId ? <CreateRecordForm folderId={folderId} /> : null}
        </section>
      </div>
    </>
  );
}

export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

function CreateRecordForm({ folderId }: { folderId: string }) {
  const [title, setTitle] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const submit = useSubmit(() =>
    trpc.records.create.mutate({
      folderId,
      title,
      ...(email ? { email } : {}),
      ...(phone ? { phone } : {}),
    }),
  );
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await submit.run();
    if (created) navigate(`/records/${created.data.id}`);
  };
  const fields = submit.problem?.fields ?? {};
  return (
    <form onSubmit={onSubmit} className="card" aria-label="Add a record" noValidate>
      <h2>Add a record</h2>
      <ProblemMessage problem={submit.problem} paths={['title', 'email', 'phone']} />
      <div className="row">
        <Field
          label="Title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          error={fields.title}
          required
        />
        <Field
          label="Email"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fields.email}
        />
        <Field label="Phone" value={phone} onChange={(e) => setPhone(e.target.value)} error={fields.phone} />
      </div>
      <button type="submit" disabled={submit.busy}>
        Add record
      </button>
    </form>
  );
}
