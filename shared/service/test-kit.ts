// What the service schema tests share.
import type { z } from 'zod';
import { requestIssues } from './common.ts';

/** The parameters a failed parse names (first path element of each issue). */
export function rejectedParameters(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`expected a rejection, got ${JSON.stringify(result.data)}`);
  return [...new Set(requestIssues(result.error).map((issue) => issue.parameter))];
}
