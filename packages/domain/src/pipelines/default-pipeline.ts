/** The pipeline a new workspace starts with, and the stages of a pipeline created without any (docs/api.md, "Pipelines and stages"). */
export const DEFAULT_PIPELINE = { name: 'Sales', stages: ['Lead', 'Qualified', 'Proposal', 'Won', 'Lost'] };
