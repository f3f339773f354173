import type { z } from 'zod';
import type { ErrorDetail } from './errors.ts';

/**
 * The problems of a failed check, each at its path, worded for a person (docs/api.md, "Error
 * format"): a missing value "is required", a value of the wrong type "must be of type …", an
 * unknown key "is not a known field". The REST and tRPC answers and a job's result lines
 * (docs/jobs.md, "Results") say them the same way.
 */
export function issueDetails(error: z.ZodError): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        details.push({ path: joinPath([...issue.path, key]), message: 'is not a known field' });
      }
    } else {
      details.push({ path: joinPath(issue.path), message: describeIssue(issue) });
    }
  }
  return details;
}

function joinPath(path: PropertyKey[]): string {
  return path.map((p) => String(p)).join('.');
}

/** One problem of a check, worded for a person (see issueDetails). */
export function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    // zod 4 leaves `input` off issues unless asked; its message names what it received.
    return /received undefined$/.test(issue.message) ? 'is required' : `must be of type ${issue.expected}`;
  }
  if (issue.code === 'invalid_value') {
    return `must be one of: ${issue.values.map((v) => String(v)).join(', ')}`;
  }
  return issue.message.replace(/^Invalid input: /, '');
}
