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
export const DEFAULT_PIPELINE = { name: 'Sales', stages: ['Lead', 'Qualified', 'Proposal', 'Won', 'Lost'] };
