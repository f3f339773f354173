/** What a new workspace starts with (docs/api.md, "Folders"). */
export const DEFAULT_FOLDER = {
  name: 'People',
  fields: [
    { key: 'company', label: 'Company', type: 'TEXT' as const },
    {
      key: 'lifecycle',
      label: 'Lifecycle',
      type: 'SELECT' as const,
      options: ['Lead', 'Prospect', 'Customer', 'Churned'],
    },
  ],
};
export { DEFAULT_PIPELINE } from '../pipelines/default-pipeline.ts';
