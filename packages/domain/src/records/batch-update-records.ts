// The batch update lives in update-records.ts. jobs/run-import.ts still imports it by this
// path; once it imports update-records.ts, this file goes.
export { updateRecords, updateRecordsInput } from './update-records.ts';
