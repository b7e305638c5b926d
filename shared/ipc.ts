// The app's IPC contract: every operation the renderer can ask of the main process (or of the browser
// host, which serves the same handlers), each with its request and response schema, and every event the
// main process pushes. One file, both sides validate (GitHub Desktop's ipc-shared.ts, with zod).
// The preload exposes exactly these names as functions, and the host bridge mirrors it.
import { z } from 'zod';
import { PlatErrorSchema } from './errors.ts';
import { ReportDocumentSchema } from './report/document.ts';
import { ComparablesWorkfileSchema } from './comparables/model.ts';
import { GraphDecisionsSchema, graphDecisionKinds, NOTE_MAX } from './graph/decisions.ts';
import { checkServiceBaseUrl, MAX_SERVICE_URL_LENGTH } from './connection-url.ts';
import { ChargeCheckSchema } from './spend-marks.ts';
import { isIsoDate, operationSchemas, serviceOperationNames, serviceOperations, type OperationSchemas, type ServiceOperationName } from './service/index.ts';
import type { EventListenerName, IpcNameOf, ListedEventName, ListedOperationName } from './ipc-names.ts';

export { eventListenerName, ipcEventNames, ipcOperationNames, serviceCallOperations, type EventListenerName, type ServiceCallIpcName } from './ipc-names.ts';

export const ServiceConnectionSchema = z.object({
  /** `local-sample`: the embedded service on the bundled sample; `live`: a configured base URL. */
  mode: z.enum(['local-sample', 'live']),
  baseUrl: z.string(),
  /** What the status line shows, e.g. "Local sample service" or the live host name. */
  label: z.string(),
  /**
   * What was last checked, never assumed: `starting` (the embedded service is starting), `checking`
   * (a free call is proving the connection now), `ready` (the last check or call was answered),
   * `unreachable` (the last check or call got no answer: network, timeout, 5xx; it may come back),
   * `failed` (unusable as set up: the embedded service did not start, the key was refused, or a
   * stored setting could not be used; `detail` says why and what to do).
   */
  state: z.enum(['starting', 'checking', 'ready', 'unreachable', 'failed']),
  detail: z.string().nullable(),
  /** When the state was last checked against the service (ISO); null before the first check. */
  checkedAt: z.string().nullable(),
});
export type ServiceConnection = z.infer<typeof ServiceConnectionSchema>;

export const AppInfoSchema = z.object({
  appName: z.string(),
  appVersion: z.string(),
  runtime: z.enum(['electron', 'browser-host']),
  service: ServiceConnectionSchema,
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

const NoRequest = z.strictObject({});
const MicroUsd = z.number().int().nonnegative();
const IsoDateTime = z.string();
const IsoDateInput = z.string().refine((text) => isIsoDate(text, { time: 'allowed' }), { error: 'must be an ISO date or date-time that exists' });

// ---------------------------------------------------------------------------------------------
// Service calls. The renderer sends the request parts in the service's wire form (query strings,
// JSON bodies) exactly as shared/service validates them, so a rule broken in the renderer is named
// the same way the service would name it, and nothing invalid is ever sent (or paid for).

/** Accepts what `schema` accepts and passes the value on unchanged (the core re-parses it for the wire). */
function validatedBy<S extends z.ZodType>(schema: S) {
  return z.unknown().superRefine((value, ctx) => {
    const result = schema.safeParse(value);
    if (!result.success) {
      for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  }) as unknown as z.ZodType<z.input<S>, z.input<S>>;
}

type PartInput<N extends ServiceOperationName, P extends string> = z.input<
  (typeof operationSchemas)[N] extends Record<P, infer S extends z.ZodType> ? S : never
>;
type PartsInput<N extends ServiceOperationName> = {
  [P in 'path' | 'body' as (typeof operationSchemas)[N] extends Record<P, z.ZodType> ? P : never]: PartInput<N, P>;
} & {
  [P in 'query' as (typeof operationSchemas)[N] extends Record<P, z.ZodType> ? P : never]?: PartInput<N, P>;
};

function partsFor<N extends ServiceOperationName>(operation: N): z.ZodType<PartsInput<N>, PartsInput<N>> {
  const schemas: OperationSchemas = operationSchemas[operation];
  const shape: Record<string, z.ZodType> = {};
  if (schemas.path) shape.path = validatedBy(schemas.path);
  // Every query parameter has a default or is optional, so the whole query may be left out.
  if (schemas.query) shape.query = validatedBy(schemas.query).optional();
  if (schemas.body) shape.body = validatedBy(schemas.body);
  return z.strictObject(shape) as unknown as z.ZodType<PartsInput<N>, PartsInput<N>>;
}

/** How one user action asks for a service call. */
const serviceCallRequest = <N extends ServiceOperationName>(operation: N) =>
  z.strictObject({
    request: partsFor(operation),
    /** One id per user action (a click, a submitted form), reused if the user retries that action:
     * it becomes the Idempotency-Key, so a retried action is replayed free instead of charged again. */
    actionId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/).optional(),
    /** The user saw the price and confirmed it (needed at or above the confirmation threshold). */
    confirmed: z.boolean().optional(),
    /** Skip the cache and buy a fresh answer. */
    refresh: z.boolean().optional(),
    /**
     * Which file pays and keeps the answer, chosen by the person for this call: a project's id, or
     * null for none. Absent: the active assignment, as before (calls made on the assignment's own screens).
     */
    projectId: z.string().min(1).max(64).nullable().optional(),
  });
export type ServiceCallRequest<N extends ServiceOperationName> = z.input<ReturnType<typeof serviceCallRequest<N>>>;

/** What a call cost and where its answer came from, for the spend meter and the citation chip. */
export const CallBillingSchema = z.object({
  chargedMicroUsd: MicroUsd,
  /** The service replayed an earlier answer to the same action (free). */
  replayed: z.boolean(),
  /** Answered from Plat's cache (free); servedAt is then the original answer's time. */
  cacheHit: z.boolean(),
  servedAt: IsoDateTime,
  requestId: z.string(),
  balanceMicroUsd: z.number().int().nullable(),
  attempts: z.number().int().nonnegative(),
});
export type CallBilling = z.infer<typeof CallBillingSchema>;

// The envelope is checked once, where it arrives: the main process's service client parses every
// answer with the same shared/service schema before it is cached or returned, so the IPC layer
// passes it on without parsing it a second time (pages of 100 records made that the costliest step).
const serviceCallResponse = <N extends ServiceOperationName>(_operation: N) =>
  z.object({
    envelope: z.custom<z.output<(typeof operationSchemas)[N]['response']>>((value) => typeof value === 'object' && value !== null),
    billing: CallBillingSchema,
  });

export const ServiceCallOperationSchema = z.enum(serviceOperationNames as [ServiceOperationName, ...ServiceOperationName[]]);

/** One IPC operation per service operation, derived from the operation table. */
const serviceCallIpcOperations = Object.fromEntries(
  serviceOperationNames.map((operation) => [
    serviceOperations[operation].ipc,
    { request: serviceCallRequest(operation), response: serviceCallResponse(operation) },
  ]),
) as {
  readonly [N in ServiceOperationName as IpcNameOf<N>]: {
    request: ReturnType<typeof serviceCallRequest<N>>;
    response: ReturnType<typeof serviceCallResponse<N>>;
  };
};

// ---------------------------------------------------------------------------------------------
// Money, projects, budgets, cache, key.

export const SpendSnapshotSchema = z.object({
  sessionMicroUsd: MicroUsd,
  todayMicroUsd: MicroUsd,
  allTimeMicroUsd: MicroUsd,
  /** Credit rows (the balance rose: a top-up or refund) over the same periods: their own line, not spending. */
  sessionCreditMicroUsd: MicroUsd,
  todayCreditMicroUsd: MicroUsd,
  allTimeCreditMicroUsd: MicroUsd,
  /** Charges − credits: what the service's balance fell by over the period (negative when it rose). */
  sessionNetMicroUsd: z.number().int(),
  todayNetMicroUsd: z.number().int(),
  allTimeNetMicroUsd: z.number().int(),
  byProject: z.array(z.object({ projectId: z.string().nullable(), microUsd: MicroUsd })),
  lastKnownBalanceMicroUsd: z.number().int().nullable(),
  lastChargeMicroUsd: MicroUsd.nullable(),
  lastChargeAt: IsoDateTime.nullable(),
  /**
   * Charges the service made that are counted above but not yet written to disk (the data folder
   * refused the write, e.g. a full disk); they are written as soon as it allows, at the latest on
   * the next start. 0 in normal operation.
   */
  unsavedMicroUsd: MicroUsd,
  /** A problem with Plat's data folder the person must know about (e.g. "The disk is full…"); null when none. */
  storageProblem: z.string().nullable(),
});
export type SpendSnapshot = z.infer<typeof SpendSnapshotSchema>;

export const LedgerFilterSchema = z.strictObject({
  projectId: z.string().max(64).nullable().optional(),
  // Dates the page sends must exist: the core turns them into Dates, and an invalid one would fail there.
  from: IsoDateInput.optional(),
  to: IsoDateInput.optional(),
});
export type LedgerFilter = z.infer<typeof LedgerFilterSchema>;

export const LedgerRowSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['call', 'reconciliation', 'credit']),
  startedAt: IsoDateTime,
  finishedAt: IsoDateTime.nullable(),
  operation: z.string(),
  requestSummary: z.string(),
  requestId: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  httpStatus: z.number().int().nullable(),
  status: z.string(),
  expectedCostMicroUsd: z.number().int().nullable(),
  /** What Plat booked (what the balance bore out). */
  chargedMicroUsd: z.number().int(),
  unreportedChargeMicroUsd: z.number().int(),
  /** The charge header's amount as the service sent it; null when absent or not an amount. */
  reportedChargeMicroUsd: z.number().int().nullable(),
  /** Why the booked charge is not the header as sent (shared/spend-marks.ts); null when it is. */
  chargeCheck: ChargeCheckSchema.nullable(),
  /** The charge header as sent, when it was not an amount. */
  chargeHeader: z.string().nullable(),
  /** Measured against a balance yet (a marked row's booking waits for one until then). */
  reconciled: z.boolean(),
  balanceAfterMicroUsd: z.number().int().nullable(),
  replayed: z.boolean(),
  cacheHit: z.boolean(),
  projectId: z.string().nullable(),
  errorCode: z.string().nullable(),
});
export type LedgerRow = z.infer<typeof LedgerRowSchema>;

/**
 * What makes a project an assignment (the appraiser's or title researcher's workfile): the subject,
 * the date the work speaks for (comparables and "as of" are judged against it), and who it is for.
 */
export const AssignmentDetailsSchema = z.object({
  /** The subject's entity id (prop_, parc_, unit_ or acct_). */
  subjectRef: z.string().min(1).max(64),
  /** How a person recognises the subject ("1708 21ST ST NW · SSL 0065 0007"). */
  subjectLabel: z.string().max(300),
  /** YYYY-MM-DD; defaults to the day the assignment is started. */
  effectiveDate: z.string().refine((text) => isIsoDate(text), { error: 'must be a date that exists (YYYY-MM-DD)' }),
  intendedUse: z.string().max(500),
  client: z.string().max(300),
  reference: z.string().max(120),
  notes: z.string().max(20_000),
});
export type AssignmentDetails = z.infer<typeof AssignmentDetailsSchema>;

export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  capMicroUsd: MicroUsd.nullable(),
  archived: z.boolean(),
  createdAt: IsoDateTime,
  /** Null for a plain project; an assignment's details otherwise. */
  assignment: AssignmentDetailsSchema.nullable(),
});
export type Project = z.infer<typeof ProjectSchema>;

/** One answer bought (or served free) while an assignment was active, kept with it. */
export const AssignmentAnswerSchema = z.object({
  id: z.string(),
  operation: ServiceCallOperationSchema,
  /** The request, as compact text (what was asked). */
  parameters: z.string(),
  at: IsoDateTime,
  chargedMicroUsd: MicroUsd,
  cacheHit: z.boolean(),
  requestId: z.string().nullable(),
  /** What it is about, for a person ("Subject report for 1708 21ST ST NW"). */
  label: z.string(),
  /** How many citations the answer carries. */
  citationCount: z.number().int().min(0),
  /** Set when the answer came in a workfile, not from a purchase here: "Received in workfile …" (shared/workfile/received.ts). */
  receivedIn: z.string().nullable(),
});
export type AssignmentAnswer = z.infer<typeof AssignmentAnswerSchema>;

/** What an imported assignment holds from its workfile, and the price of re-checking it against the service. */
export const ImportedAnswersSchema = z.object({
  /** "Received in workfile “…”, exported by Plat … on … for “…”". */
  receivedIn: z.string(),
  /** How many of its answers still came from the file (a re-check replaces them). */
  answers: z.number().int().min(0),
  /** Buying each of their requests again now: how many calls, and their expected cost (null when a price is not known on the connection: never a guess). */
  recheck: z.object({ expectedCostMicroUsd: MicroUsd.nullable(), calls: z.number().int().min(0) }),
});
export type ImportedAnswers = z.infer<typeof ImportedAnswersSchema>;

/** What a re-check of imported answers did: each request bought again with what changed (old → new), and what could not be. */
export const RecheckResultSchema = z.object({
  replaced: z.array(
    z.object({
      label: z.string(),
      changes: z.array(z.object({ path: z.string(), before: z.string(), after: z.string() })),
      /** Changes past the listed ones. */
      more: z.number().int().min(0),
    }),
  ),
  failed: z.array(z.object({ label: z.string(), message: z.string() })),
  chargedMicroUsd: MicroUsd,
  /** Answers still from the file afterwards (those that failed). */
  remaining: z.number().int().min(0),
});
export type RecheckResult = z.infer<typeof RecheckResultSchema>;

/** The appraiser's choice of another value for a field, with the reason (kept and printed). */
export const ValueChoiceSchema = z.object({
  field: z.string().min(1).max(120),
  alternativeKey: z.string().min(1).max(200),
  reason: z.string().trim().min(1).max(2_000),
  at: IsoDateTime,
});
export type ValueChoice = z.infer<typeof ValueChoiceSchema>;

/** Whose signature an imported workfile carries: this installation's, another's, or none (a signature that does not match is refused). */
export const WorkfileSignatureSchema = z.object({
  status: z.enum(['this-installation', 'other-installation', 'unsigned']),
  /** The signing certificate's SHA-256 fingerprint (`AB:CD:…`). */
  fingerprint: z.string().nullable(),
  /** What the signature proves, for a person. */
  message: z.string(),
});
export type WorkfileSignature = z.infer<typeof WorkfileSignatureSchema>;

/** What "Verify a report" found in a PDF, value by value. */
export const ReportVerificationSchema = z.object({
  /** `plat`: a Plat report whose every check passed; `altered`: a check found a change (signature, attachments, CSV, pages, derived values); `not-plat`: no Plat attachments; `unreadable`: not a PDF Plat can read (or too large). */
  kind: z.enum(['plat', 'altered', 'not-plat', 'unreadable']),
  message: z.string(),
  assignmentId: z.string().nullable(),
  assignmentName: z.string().nullable(),
  generatedAt: z.string().nullable(),
  rows: z.array(
    z.object({
      field: z.string(),
      label: z.string(),
      printed: z.string(),
      /** What Plat holds now for the same field; null when it holds nothing for it. */
      current: z.string().nullable(),
      outcome: z.enum(['unchanged', 'changed', 'not-held', 'altered']),
      citation: z.string(),
    }),
  ),
  /** Re-checking against the service: what it would buy and cost (free when nothing needs buying; null when a price is not known on the connection). */
  recheck: z.object({ expectedCostMicroUsd: MicroUsd.nullable(), calls: z.number().int().min(0) }).nullable(),
  /** The PDF's digital signature: whose it is (by the certificate's SHA-256 fingerprint) and whether every byte is as signed; null when the PDF was not read that far. */
  signature: z
    .object({
      status: z.enum(['this-installation', 'other-installation', 'none', 'broken']),
      fingerprint: z.string().nullable(),
      detail: z.string(),
    })
    .nullable(),
  /** Each check, what it proved (`passed`), disproved (`failed`) or could not look at (`not-checked`), in words. */
  checks: z.array(
    z.object({
      check: z.enum(['signature', 'attachments', 'csv', 'pages', 'derived']),
      outcome: z.enum(['passed', 'failed', 'not-checked']),
      detail: z.string(),
    }),
  ),
});
export type ReportVerification = z.infer<typeof ReportVerificationSchema>;

/** The most the bound for a call whose price is not known may be set to: $1,000. */
export const MAX_UNKNOWN_PRICE_BOUND_MICRO_USD = 1_000_000_000;

/**
 * "Largest charge to allow for a call whose price is not known": a positive amount, since a bound of
 * zero would let such a call past any cap.
 */
export const UnknownPriceBoundSchema = z
  .number()
  .int({ error: 'must be a whole number of micro-USD' })
  .min(1, { error: 'must be more than $0' })
  .max(MAX_UNKNOWN_PRICE_BOUND_MICRO_USD, { error: 'must be at most $1,000.00' });

/** The spending caps and the confirmation threshold (the core's budgets use this type too). */
export const BudgetSettingsSchema = z.object({
  /** Most this app session may spend; null means no cap. */
  sessionCapMicroUsd: MicroUsd.nullable(),
  /**
   * Calls expected to cost at least this much need the user's confirmation. 0 confirms every
   * charged call; null never asks. Free calls never need confirmation; a call whose price is not
   * known always does.
   */
  confirmationThresholdMicroUsd: MicroUsd.nullable(),
  /**
   * What a call whose price is not known (no charge for it seen yet on this connection) is taken to
   * cost at most, against the caps: it is refused when less than this remains of a cap.
   */
  unknownPriceBoundMicroUsd: UnknownPriceBoundSchema,
});
export type BudgetSettings = z.infer<typeof BudgetSettingsSchema>;

export const CacheSettingsSchema = z.object({
  ttlSeconds: z.number().int().min(60).max(365 * 24 * 3600),
  maxEntries: z.number().int().min(10).max(1_000_000),
  maxBytes: z.number().int().min(1024 * 1024).max(10 * 1024 * 1024 * 1024),
});
export const CacheStatusSchema = CacheSettingsSchema.extend({
  entries: z.number().int(),
  bytes: z.number().int(),
  hits: z.number().int(),
  misses: z.number().int(),
});
export type CacheStatus = z.infer<typeof CacheStatusSchema>;

/** Everything the renderer may know about the key (the core's key vault reports this type). */
export const KeyStatusSchema = z.object({
  configured: z.boolean(),
  /** Where the key lives: `memory`, `environment`, or the safeStorage backend (`gnome_libsecret`, `basic_text`, `macos_keychain`, …). */
  backend: z.string(),
  /** Whether the key survives a restart. */
  persisted: z.boolean(),
});
export type KeyStatus = z.infer<typeof KeyStatusSchema>;

/**
 * Where a price comes from, per connection: `spec` (the spec states it: v4 summary, catalog,
 * connected), `price_table` (Plat's own table, for the embedded sample service Plat runs),
 * `last_observed` (the charge of the last call of it on this connection), `unknown` (none of these:
 * no charge for it seen yet), `cached` (answered from Plat's cache, free).
 */
export const PriceBasisSchema = z.enum(['spec', 'price_table', 'last_observed', 'unknown', 'cached']);
export type PriceBasis = z.infer<typeof PriceBasisSchema>;

export const CostPreviewSchema = z.object({
  operation: ServiceCallOperationSchema,
  /** null when the price is not known (basis `unknown`). */
  expectedCostMicroUsd: MicroUsd.nullable(),
  basis: PriceBasisSchema,
  /** The largest charge seen for this operation on this connection; null when none was seen. */
  largestSeenMicroUsd: MicroUsd.nullable(),
  note: z.string(),
  cached: z.boolean(),
  needsConfirmation: z.boolean(),
  /** Set when the call might cross a cap and will not be sent. */
  blockedBy: z
    .object({ cap: z.enum(['session', 'project']), capMicroUsd: MicroUsd, spentMicroUsd: MicroUsd, message: z.string() })
    .nullable(),
});
export type CostPreview = z.infer<typeof CostPreviewSchema>;

export const CallProgressSchema = z.object({
  actionId: z.string(),
  operation: ServiceCallOperationSchema,
  state: z.enum(['retrying', 'throttled']),
  attempt: z.number().int(),
  delayMs: z.number().int().nonnegative(),
  reason: z.string(),
});
export type CallProgress = z.infer<typeof CallProgressSchema>;

const ConnectionRequest = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('local-sample') }),
  z
    .strictObject({
      mode: z.literal('live'),
      baseUrl: z.string().max(MAX_SERVICE_URL_LENGTH),
      /** The person confirmed plain http:// to another computer (the key travels unencrypted). */
      allowInsecure: z.literal(true).optional(),
    })
    // The rule lives in shared/connection-url.ts so the settings form checks exactly the same.
    .superRefine((request, ctx) => {
      const check = checkServiceBaseUrl(request.baseUrl, { allowInsecure: request.allowInsecure });
      if (!check.ok) ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: check.problem });
    }),
]);

/** Operation name → request and response schemas. */
export const ipcOperations = {
  getAppInfo: { request: NoRequest, response: AppInfoSchema },
  setConnection: { request: ConnectionRequest, response: ServiceConnectionSchema },

  // Service calls, one per operation of the Property Records Service (the operation table's `ipc`).
  ...serviceCallIpcOperations,
  /** The expected cost of a call before it is made, and whether a cap or a confirmation stands in the way. */
  previewCost: {
    request: z.strictObject({ operation: ServiceCallOperationSchema, request: z.record(z.string(), z.unknown()) }),
    response: CostPreviewSchema,
  },

  // Spend.
  getSpend: { request: NoRequest, response: SpendSnapshotSchema },
  listLedger: {
    request: z.strictObject({ filter: LedgerFilterSchema, limit: z.number().int().min(1).max(500), offset: z.number().int().min(0) }),
    response: z.object({ rows: z.array(LedgerRowSchema), total: z.number().int() }),
  },
  exportLedgerCsv: {
    request: z.strictObject({ filter: LedgerFilterSchema }),
    response: z.object({ filename: z.string(), csv: z.string() }),
  },

  // Projects and budgets.
  listProjects: {
    request: NoRequest,
    response: z.object({ projects: z.array(ProjectSchema), activeProjectId: z.string().nullable() }),
  },
  createProject: {
    request: z.strictObject({ name: z.string().trim().min(1).max(120), capMicroUsd: MicroUsd.nullable() }),
    response: ProjectSchema,
  },
  updateProject: {
    request: z.strictObject({
      id: z.string().min(1).max(64),
      name: z.string().trim().min(1).max(120).optional(),
      capMicroUsd: MicroUsd.nullable().optional(),
      archived: z.boolean().optional(),
    }),
    response: ProjectSchema,
  },
  // Assignments: a project with a subject, an effective date and its client; every answer bought while
  // one is active is kept with it and reopens free.
  createAssignment: {
    request: z.strictObject({
      name: z.string().trim().min(1).max(120),
      capMicroUsd: MicroUsd.nullable(),
      details: AssignmentDetailsSchema.partial({ effectiveDate: true, intendedUse: true, client: true, reference: true, notes: true }).strict(),
      /** Make it the active assignment (everything bought from now on is attached to it). */
      activate: z.boolean().optional(),
    }),
    response: ProjectSchema,
  },
  updateAssignment: {
    request: z.strictObject({ id: z.string().min(1).max(64), details: AssignmentDetailsSchema.partial().strict() }),
    response: ProjectSchema,
  },
  getAssignment: {
    request: z.strictObject({ id: z.string().min(1).max(64) }),
    response: z.object({
      project: ProjectSchema,
      answers: z.array(AssignmentAnswerSchema),
      spentMicroUsd: MicroUsd,
      choices: z.array(ValueChoiceSchema),
      /** For an assignment imported from a workfile: where its answers came from, how many it still holds, and what re-checking them would cost. */
      imported: ImportedAnswersSchema.nullable(),
    }),
  },
  /** A kept answer, served from the local store: free, and works with the service unreachable. */
  getAssignmentAnswer: {
    request: z.strictObject({ id: z.string().min(1).max(64), answerId: z.string().min(1).max(64) }),
    response: z.object({ answer: AssignmentAnswerSchema, envelope: z.unknown() }),
  },
  setValueChoice: {
    request: z.strictObject({
      assignmentId: z.string().min(1).max(64),
      field: z.string().min(1).max(120),
      /** null takes the choice back (Plat's own choice stands again). */
      choice: z.strictObject({ alternativeKey: z.string().min(1).max(200), reason: z.string().trim().min(1).max(2_000) }).nullable(),
    }),
    response: z.object({ choices: z.array(ValueChoiceSchema) }),
  },
  /**
   * The assignment's comparable sales, from the local store: free, and works with the service
   * unreachable. The workfile is empty when nothing was saved yet; `subject` is the kept
   * report_subject_v1 envelope for the subject (or null); `pages` the kept envelopes of the last
   * search's pages, in page order ([] if none kept).
   */
  getComparables: {
    request: z.strictObject({ assignmentId: z.string().min(1).max(64) }),
    response: z.object({
      workfile: ComparablesWorkfileSchema,
      subject: z.unknown().nullable(),
      /** The kept v4 summary envelope of the subject (or null): with `subject` it resolves the one subject (shared/comparables/subject/). */
      summary: z.unknown().nullable(),
      pages: z.array(z.unknown()),
      /** The kept v4 searches of sale records (a deed's other lots by its date and price), oldest first; absent is none. */
      lotAnswers: z.array(z.unknown()).optional(),
      /** The market-sales search's kept pages (market conditions), page 1 first; absent from an older core. */
      marketPages: z.array(z.unknown()).optional(),
      /** Set when the subject or a page read here came in a workfile: "Received in workfile …". */
      receivedIn: z.string().nullable(),
    }),
  },
  /** Saves the appraiser's comparables work (free, local); answers it as stored, savedAt set by the core. */
  saveComparables: {
    request: z.strictObject({ assignmentId: z.string().min(1).max(64), workfile: ComparablesWorkfileSchema }),
    response: z.object({ workfile: ComparablesWorkfileSchema }),
  },
  /** The researcher's decisions on the graph's links (confirmed or cut, each with its note and time), from the local store: free. */
  getGraphDecisions: {
    request: z.strictObject({ assignmentId: z.string().min(1).max(64) }),
    response: z.object({ decisions: GraphDecisionsSchema }),
  },
  /** Confirms or cuts one link with a note (the time is the core's), or withdraws the decision (null); answers every decision. */
  setGraphDecision: {
    request: z.strictObject({
      assignmentId: z.string().min(1).max(64),
      edgeKey: z.string().min(1).max(500),
      decision: z
        .strictObject({
          decision: z.enum(graphDecisionKinds),
          note: z.string().trim().min(1, { error: 'is required: say why you confirm or cut this link' }).max(NOTE_MAX),
        })
        .nullable(),
    }),
    response: z.object({ decisions: GraphDecisionsSchema }),
  },
  /** The workfile as one JSON file (details, answers with their citations, choices): a reviewer opens it without buying again. */
  exportAssignment: {
    request: z.strictObject({ id: z.string().min(1).max(64) }),
    response: z.object({ filename: z.string(), json: z.string() }),
  },
  importAssignment: {
    /** `fileName`: the file's name as the person chose it, kept with the answers it brings (their provenance). */
    request: z.strictObject({ json: z.string().min(2).max(15 * 1024 * 1024), fileName: z.string().max(300).optional() }),
    /** The new assignment, and whose signature the workfile carried. */
    response: ProjectSchema.extend({ workfileSignature: WorkfileSignatureSchema }),
  },
  /**
   * Buys again, from the service, every answer the assignment holds from a workfile (each request once,
   * skipping the cache; the assignment becomes the active one, so the purchases are charged to it), keeps
   * the bought answers in their place, and says what changed, field by field.
   */
  recheckImportedAnswers: {
    request: z.strictObject({ assignmentId: z.string().min(1).max(64), confirmed: z.boolean().optional() }),
    response: RecheckResultSchema,
  },

  // Reports: built from the assignment's kept answers (free), printed to PDF with its evidence attached.
  getSubjectReport: {
    request: z.strictObject({ assignmentId: z.string().min(1).max(64) }),
    response: ReportDocumentSchema,
  },
  exportReportPdf: {
    request: z.strictObject({ assignmentId: z.string().min(1).max(64) }),
    response: z.object({ filename: z.string(), pdfBase64: z.string(), pageCount: z.number().int(), byteLength: z.number().int() }),
  },
  verifyReport: {
    // A PDF travels base64 on the bridge, whose messages stop at 16 MiB: about 11 MiB of PDF.
    request: z.strictObject({ pdfBase64: z.string().min(1).max(15 * 1024 * 1024) }),
    response: ReportVerificationSchema,
  },

  setActiveProject: {
    request: z.strictObject({ id: z.string().min(1).max(64).nullable() }),
    response: z.object({ activeProjectId: z.string().nullable() }),
  },
  getBudgets: { request: NoRequest, response: BudgetSettingsSchema },
  // The bound may be left out: the caps and threshold are then saved and the bound kept.
  setBudgets: { request: BudgetSettingsSchema.partial({ unknownPriceBoundMicroUsd: true }).strict(), response: BudgetSettingsSchema },

  // Cache.
  getCacheStatus: { request: NoRequest, response: CacheStatusSchema },
  setCachePolicy: { request: CacheSettingsSchema.strict(), response: CacheStatusSchema },
  clearCache: { request: NoRequest, response: CacheStatusSchema },

  // API key: the renderer learns only {configured, backend, persisted}.
  getKeyStatus: { request: NoRequest, response: KeyStatusSchema },
  setApiKey: {
    request: z.strictObject({ key: z.string().min(1).max(512), allowWeakStorage: z.boolean().optional() }),
    response: KeyStatusSchema,
  },
  testApiKey: {
    request: NoRequest,
    response: z.object({ ok: z.boolean(), message: z.string(), balanceMicroUsd: z.number().int().nullable() }),
  },
  deleteApiKey: { request: NoRequest, response: KeyStatusSchema },
  // Every operation named in ipc-names.ts, and no other: one added or dropped on one side only fails here.
} as const satisfies Record<ListedOperationName, { request: z.ZodType; response: z.ZodType }>;

/** Event name → payload schema, pushed from the main process to the renderer. */
export const ipcEvents = {
  serviceConnectionChanged: ServiceConnectionSchema,
  spendUpdated: SpendSnapshotSchema,
  callProgress: CallProgressSchema,
} as const satisfies Record<ListedEventName, z.ZodType>;

export type IpcOperationName = keyof typeof ipcOperations;
export type IpcEventName = keyof typeof ipcEvents;
export type IpcRequest<N extends IpcOperationName> = z.input<(typeof ipcOperations)[N]['request']>;
export type IpcResponse<N extends IpcOperationName> = z.output<(typeof ipcOperations)[N]['response']>;
export type IpcEventPayload<E extends IpcEventName> = z.output<(typeof ipcEvents)[E]>;

/** What crosses the boundary: never stacks, never request headers (Signal's wrapResult). */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: z.infer<typeof PlatErrorSchema> };

export const ipcResultSchema = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [
    z.strictObject({ ok: z.literal(true), value }),
    z.strictObject({ ok: z.literal(false), error: PlatErrorSchema }),
  ]);

/** The object the preload (Electron) or the host bridge (browser) puts on `window.plat`. */
export type PlatApi = {
  readonly [N in IpcOperationName]: (request: IpcRequest<N>) => Promise<IpcResult<IpcResponse<N>>>;
} & {
  readonly [E in IpcEventName as EventListenerName<E>]: (listener: (payload: IpcEventPayload<E>) => void) => () => void;
};

/** Electron channel names, one per operation and event. */
export const ipcChannel = (name: IpcOperationName | IpcEventName): string => `plat:${name}`;
