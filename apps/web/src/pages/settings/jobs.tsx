import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ListView, PageHeader, usePager } from '../../lib/components.tsx';
import type { JobStatus, JobType } from '../../lib/jobs.ts';
import { api } from '../../lib/query.ts';
import { JobRow } from './job-row.tsx';

const TYPES: readonly JobType[] = ['IMPORT', 'EXPORT', 'UPDATE'];
const STATUSES: readonly JobStatus[] = [
  'AWAITING_FILE',
  'QUEUED',
  'RUNNING',
  'SUCCEEDED',
  'FAILED',
  'CANCELLED',
];

/** How often the list is read again while one of its jobs is queued or running. */
const REFRESH_MS = 2000;

/**
 * The workspace's jobs (`jobs.list`, docs/web-app.md "Jobs"): imports, exports and updates,
 * newest first, by type and status, 50 a page; each with its progress, its maker, its files
 * and Cancel while it has not ended. Read again every two seconds while one of the page's
 * jobs is queued or running.
 */
export function JobsPage() {
  const [type, setType] = useState<JobType | ''>('');
  const [status, setStatus] = useState<JobStatus | ''>('');
  const pager = usePager(`${type} ${status}`);
  const jobs = useQuery({
    ...api.jobs.list.queryOptions({
      pageSize: 50,
      ...(type ? { type } : {}),
      ...(status ? { status } : {}),
      ...(pager.cursor ? { cursor: pager.cursor } : {}),
    }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.data.some((job) => job.status === 'QUEUED' || job.status === 'RUNNING')
        ? REFRESH_MS
        : false,
  });
  const folders = useQuery(api.folders.list.queryOptions({ pageSize: 200 }));
  const folderName = (id: string | null) =>
    id ? (folders.data?.data.find((f) => f.id === id)?.name ?? id) : '—';
  return (
    <>
      <PageHeader title="Jobs" />
      <p>
        Imports, exports and changes the server works through on its own, a chunk at a time: large CSV imports
        and exports of the records page, and those made through the API. Ended jobs are kept 30 days, an
        export’s file 24 hours.
      </p>
      <fieldset className="filters">
        <legend className="visually-hidden">Filter the jobs</legend>
        <label>
          Type{' '}
          <select value={type} onChange={(e) => setType(e.target.value as JobType | '')}>
            <option value="">any</option>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t.toLowerCase()}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          Status{' '}
          <select value={status} onChange={(e) => setStatus(e.target.value as JobStatus | '')}>
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.toLowerCase().replace('_', ' ')}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
      <ListView
        query={jobs}
        what="jobs"
        pager={pager}
        empty={type || status ? 'No job of this type or status.' : 'No jobs yet.'}
      >
        {(rows) => (
          <table aria-label="Jobs, newest first" className="jobs-table">
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Folder</th>
                <th scope="col">Status</th>
                <th scope="col">Progress</th>
                <th scope="col">By</th>
                <th scope="col">Made</th>
                <th scope="col">Files</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((job) => (
                <JobRow key={job.id} job={job} folder={folderName(job.folderId)} />
              ))}
            </tbody>
          </table>
        )}
      </ListView>
    </>
  );
}
