// What the ledger's writes and reads accept, checked before anything touches the database.
import { z } from 'zod';
import { MicroUsdSchema } from '../../../shared/money.ts';

export const BeginAttemptSchema = z.object({
  operation: z.string().min(1).max(200),
  requestSummary: z.unknown(),
  idempotencyKey: z.string().min(1).max(256).nullable(),
  expectedCostMicroUsd: MicroUsdSchema,
  /** False when the price was not known: the expected cost is then the bound the call was counted at. */
  priceKnown: z.boolean().optional(),
  projectId: z.string().min(1).max(200).nullable(),
  sessionId: z.string().min(1).max(200),
});

export const CallAnswerSchema = z.object({
  httpStatus: z.int().min(100).max(599).nullable(),
  requestId: z.string().min(1).max(512).nullable(),
  chargedMicroUsd: MicroUsdSchema.nullable(),
  // The charge header as sent when it was not an amount (the client keeps at most 100 characters).
  chargeHeader: z.string().max(200).nullable().optional(),
  balanceAfterMicroUsd: MicroUsdSchema.nullable(),
  replayed: z.boolean(),
  errorCode: z.string().min(1).max(200).nullable(),
  // 0: refused before anything was sent, or closed by recovery without re-sending (no key to replay).
  attempts: z.int().min(0).max(1000),
  outcomeUnknown: z.boolean().optional(),
});
export type ParsedAnswer = z.output<typeof CallAnswerSchema>;

export const CacheHitSchema = z.object({
  operation: z.string().min(1).max(200),
  requestSummary: z.unknown(),
  projectId: z.string().min(1).max(200).nullable(),
  sessionId: z.string().min(1).max(200),
  originalRequestId: z.string().min(1).max(512).nullable(),
  servedAt: z.union([z.iso.datetime({ offset: true }), z.date().transform((date) => date.toISOString())]),
});

export const PageSchema = z.object({
  projectId: z.string().nullable().optional(),
  from: z.date().optional(),
  to: z.date().optional(),
  limit: z.int().min(1).max(10_000),
  offset: z.int().min(0).optional(),
});
