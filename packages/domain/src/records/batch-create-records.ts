// The batch creation lives in create-records.ts. jobs/run-import.ts still imports it by this
// path; once it imports create-records.ts, this file goes.
export { createRecords, createRecordsInput } from './create-records.ts';
