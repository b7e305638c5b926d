// Assignments, the appraiser's workfile: a project with a subject, an effective date and its client,
// plus every answer used while it was active. Attaching happens where every service call the person
// asks for passes (app-core's observed call), so the gateway is untouched; everything here reads the
// local store only: reopening an assignment or anything in it is free and works with the service
// unreachable. Export and import carry the whole workfile, and an import also fills the response
// cache, so the same requests are free on the reviewer's machine.
//
// The comparable-sales work is saved as the appraiser's workfile (comparables-store.ts); the answers
// its searches bought are kept like any other and found again by the request bodies each search
// recorded, so the grid, the report and a reviewer read the very answers that were paid for.
import type { DatabaseSync } from 'node:sqlite';
import type { AssignmentDetails, CallBilling, Project as IpcProject, ValueChoice, WorkfileSignature } from '../../../shared/ipc.ts';
import type { ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import type { SubjectReportInput } from '../../../shared/report/build-subject-report.ts';
import { titleResearchOperations, type TitleResearchInput } from '../../../shared/report/title-research-section.ts';
import { canonicalJson } from '../../../shared/canonical-json.ts';
import { operationSchemas, type ServiceOperationName } from '../../../shared/service/index.ts';
import { safeFilename } from '../../../shared/filename.ts';
import { inTransaction, storageProblemOf } from '../app-db.ts';
import { canonicalRequestKey, type ResponseCache } from '../cache.ts';
import type { CostEstimator } from '../cost-estimator.ts';
import { PlatFailure } from '../failure.ts';
import { localDay, normalizeProjectName, PROJECT_NAME_MAX_LENGTH, ProjectError, projectIdentity, toIpcProject, type AssignmentDetailsInput, type ProjectStore } from '../projects.ts';
import { itemsOf, normalizeParts, v3PriceRequestOf, type RequestParts } from '../service-gateway.ts';
import { answerLabel, citationsOf, compactParameters } from './answer-label.ts';
import { AnswerStore, answerFacts, queryLogEntry, toIpcAnswer, type KeptAnswer, type NewKeptAnswer } from './answer-store.ts';
import { checkWorkfile, ComparablesStore } from './comparables-store.ts';
import { GraphDecisionsStore, type GraphDecisionChange } from './graph-decisions-store.ts';
import type { GraphDecision } from '../../../shared/graph/decisions.ts';
import { MAX_WORKFILE_LENGTH, readSignedWorkfile, WORKFILE_FORMAT, WORKFILE_VERSION, writeWorkfile, type WorkfileContent, type WorkfileSigner } from './workfile.ts';

/** Answers kept in memory while the data folder refuses writes (e.g. a full disk), written at the next chance. */
const MAX_UNSAVED_ANSWERS = 500;

export interface AssignmentServiceOptions {
  db: DatabaseSync;
  projects: ProjectStore;
  cache: ResponseCache;
  estimator: CostEstimator;
  /** What the ledger has booked against a project (its byProject total). */
  projectSpent: (projectId: string) => number;
  appVersion: string;
  now?: () => Date;
  /** Signs exported workfiles and tells whose signature an imported one carries (this installation's identity). */
  signer?: (WorkfileSigner & { fingerprint(): string }) | null;
}

/** A service call as it was asked and answered, for attaching to the active assignment. */
export interface AnsweredCall {
  projectId: string | null;
  connectionId: string;
  operation: ServiceOperationName;
  parts: RequestParts;
  envelope: unknown;
  billing: CallBilling;
}

// The report's two purchases are asked exactly as the report document's `missing` entries name them.
export { subjectReportParts, subjectSummaryParts } from '../../../shared/report/document.ts';

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** What the report is built from: the latest kept answers for the subject, the choices, the log, the spend and the comparables. */
export type AssignmentReportSources = Omit<SubjectReportInput, 'generatedAt' | 'prices' | 'comparables'> & {
  /** The comparables workfile and its last search's kept pages; null when no search was run. */
  comparables: { workfile: ComparablesWorkfile; pages: unknown[] } | null;
};

/** The comparables screen's sources: the saved workfile, the kept subject report, the last search's kept pages. */
export interface ComparablesSources {
  workfile: ComparablesWorkfile;
  /** The kept report_subject_v1 envelope for the assignment's subject, or null. */
  subject: unknown;
  /** The kept envelope of each page of the last search, in page order (a page not kept is left out). */
  pages: unknown[];
}

export class AssignmentService {
  readonly #o: AssignmentServiceOptions;
  readonly #answers: AnswerStore;
  readonly #comparables: ComparablesStore;
  readonly #graphDecisions: GraphDecisionsStore;
  readonly #now: () => Date;
  readonly #unsaved: NewKeptAnswer[] = [];

  constructor(options: AssignmentServiceOptions) {
    this.#o = options;
    this.#answers = new AnswerStore(options.db);
    this.#now = options.now ?? (() => new Date());
    this.#comparables = new ComparablesStore(options.db, { now: this.#now });
    this.#graphDecisions = new GraphDecisionsStore(options.db, { now: this.#now });
  }

  /** The project with its assignment details, as the contract carries it. */
  ipcProject(id: string): IpcProject {
    const project = this.#o.projects.get(id);
    if (!project) throw new PlatFailure('not_found', 'There is no such project or assignment');
    return toIpcProject(project, this.#o.projects.assignmentDetails(id));
  }

  /** Every project, assignments with their details. */
  ipcProjects(): IpcProject[] {
    const details = this.#o.projects.allAssignmentDetails();
    return this.#o.projects.list({ includeArchived: true }).map((project) => toIpcProject(project, details.get(project.id) ?? null));
  }

  create(input: { name: string; capMicroUsd: number | null; details: AssignmentDetailsInput; activate?: boolean | undefined }): IpcProject {
    const project = inTransaction(this.#o.db, () => {
      const created = this.#o.projects.createAssignment({ name: input.name, spendingCapMicroUsd: input.capMicroUsd, details: input.details });
      // Started to work in: what is bought from now on belongs to it.
      if (input.activate === true) this.#o.projects.setActiveProjectId(created.id);
      return created;
    });
    return this.ipcProject(project.id);
  }

  update(id: string, details: Partial<AssignmentDetails>): IpcProject {
    this.#o.projects.updateAssignmentDetails(id, details);
    return this.ipcProject(id);
  }

  /** The assignment page: details, every kept answer, the spend against its cap, the choices. */
  get(id: string) {
    this.#require(id);
    this.#flushUnsaved();
    return {
      project: this.ipcProject(id),
      answers: this.#answers.list(id).map(toIpcAnswer),
      spentMicroUsd: this.#o.projectSpent(id),
      choices: this.#answers.choices(id),
    };
  }

  /** One kept answer with its envelope, from the local store. */
  answer(id: string, answerId: string) {
    this.#require(id);
    this.#flushUnsaved();
    const kept = this.#answers.get(id, answerId);
    if (!kept) throw new PlatFailure('not_found', 'This assignment holds no such answer');
    return { answer: toIpcAnswer(kept.answer), envelope: kept.envelope };
  }

  setChoice(assignmentId: string, field: string, choice: { alternativeKey: string; reason: string } | null): ValueChoice[] {
    this.#require(assignmentId);
    if (choice !== null && choice.reason.trim() === '') throw new ProjectError('Say why you chose this value: the reason is kept and printed with the report');
    this.#answers.setChoice(assignmentId, field, choice && { alternativeKey: choice.alternativeKey, reason: choice.reason.trim(), at: this.#now().toISOString() });
    return this.#answers.choices(assignmentId);
  }

  /**
   * Keeps an answer with the assignment that was active when it was asked for (plain projects keep
   * nothing). Never fails the call it comes from: the person has the answer (and paid for it); if
   * the data folder refuses the write, it is kept in memory and written with the next one.
   */
  attach(call: AnsweredCall): void {
    try {
      this.#attach(call);
    } catch {
      // Reading the assignment failed (the data folder went away under Plat): the call still answers.
    }
  }

  #attach(call: AnsweredCall): void {
    if (call.projectId === null) return;
    const details = this.#o.projects.assignmentDetails(call.projectId);
    if (!details) return;
    const parts = normalizeParts(call.operation, call.parts);
    const subject = { ref: details.subjectRef, label: details.subjectLabel };
    const answer: NewKeptAnswer = {
      projectId: call.projectId,
      operation: call.operation,
      parts,
      connectionId: call.connectionId,
      parameters: compactParameters(parts),
      label: answerLabel(call.operation, parts, subject),
      at: this.#now().toISOString(),
      servedAt: call.billing.servedAt,
      chargedMicroUsd: call.billing.chargedMicroUsd,
      cacheHit: call.billing.cacheHit,
      replayed: call.billing.replayed,
      requestId: call.billing.requestId === '' ? null : call.billing.requestId,
      citationCount: citationsOf(call.envelope).length,
      envelope: call.envelope,
    };
    this.#unsaved.push(answer);
    if (this.#unsaved.length > MAX_UNSAVED_ANSWERS) this.#unsaved.shift();
    this.#flushUnsaved();
  }

  /** What the report is built from, all local: free, and it works with the service unreachable. */
  reportSources(assignmentId: string): AssignmentReportSources | null {
    const project = this.#o.projects.get(assignmentId);
    const details = project ? this.#o.projects.assignmentDetails(assignmentId) : null;
    if (!project || !details) return null;
    this.#flushUnsaved();
    const ref = details.subjectRef;
    const summary = this.#answers.latest(assignmentId, 'v4.summary', (parts) => record(parts.path).q_id === ref);
    const workfile = this.#comparables.get(assignmentId);
    return {
      assignment: { ...projectIdentity(project), details },
      subject: this.#subjectReport(assignmentId, ref),
      summary: summary?.envelope ?? null,
      choices: this.#answers.choices(assignmentId),
      queryLog: this.#answers.list(assignmentId).map(queryLogEntry),
      spentMicroUsd: this.#o.projectSpent(assignmentId),
      comparables: workfile.searches.length === 0 ? null : { workfile, pages: this.#lastSearchPages(assignmentId, workfile) },
      titleResearch: this.#titleResearch(assignmentId),
    };
  }

  /**
   * What the report's title research reads: the kept answers of the graph, owner-search and record
   * operations (the latest answer to each request, with its normalised request parts) and the
   * researcher's decisions on links; null when the assignment holds neither.
   */
  #titleResearch(assignmentId: string): TitleResearchInput | null {
    const latest = new Map<string, KeptAnswer>();
    for (const answer of this.#answers.list(assignmentId)) {
      if (!titleResearchOperations.has(answer.operation)) continue;
      const key = `${answer.operation} ${canonicalJson(answer.parts)}`;
      latest.delete(key);
      latest.set(key, answer);
    }
    const answers = [...latest.values()].flatMap((answer) => {
      const kept = this.#answers.get(assignmentId, answer.id);
      return kept ? [{ operation: answer.operation, request: answer.parts, envelope: kept.envelope }] : [];
    });
    const decisions = this.graphDecisions(assignmentId);
    return answers.length === 0 && decisions.length === 0 ? null : { answers, decisions };
  }

  /** The comparables workfile with the kept answers it reads, all local: free, and it works with the service unreachable. */
  comparablesSources(assignmentId: string): ComparablesSources {
    const { details } = this.#require(assignmentId);
    this.#flushUnsaved();
    const workfile = this.#comparables.get(assignmentId);
    return { workfile, subject: this.#subjectReport(assignmentId, details.subjectRef), pages: this.#lastSearchPages(assignmentId, workfile) };
  }

  /** Saves the appraiser's comparables work (checked; savedAt set here) and returns it as stored. */
  saveComparables(assignmentId: string, workfile: ComparablesWorkfile): ComparablesWorkfile {
    this.#require(assignmentId);
    return this.#comparables.save(assignmentId, workfile);
  }

  /** The researcher's decisions on the graph's links (confirmed or cut, each with its note), oldest first: local and free. */
  graphDecisions(assignmentId: string): GraphDecision[] {
    this.#require(assignmentId);
    return this.#graphDecisions.list(assignmentId);
  }

  /** Confirms or cuts one link with a note (the time set here), or withdraws the decision (null); answers every decision. */
  setGraphDecision(assignmentId: string, edgeKey: string, decision: GraphDecisionChange | null): GraphDecision[] {
    this.#require(assignmentId);
    return this.#graphDecisions.set(assignmentId, edgeKey, decision);
  }

  /** The latest kept report_subject_v1 envelope for the subject, or null. */
  #subjectReport(assignmentId: string, ref: string): unknown {
    const subject = this.#answers.latest(assignmentId, 'v3.recordQuery', (parts) => {
      const body = record(parts.body);
      return body.mode === 'report' && body.projection === 'report_subject_v1' && body.subject_property_ref === ref;
    });
    return subject?.envelope ?? null;
  }

  /**
   * For each request body the last search recorded, the latest kept answer to that very request (the
   * body normalised as the gateway normalises it, so defaults the renderer left out still match).
   * A body this Plat no longer accepts, or a page not kept, is left out.
   */
  #lastSearchPages(assignmentId: string, workfile: ComparablesWorkfile): unknown[] {
    const run = workfile.searches.at(-1);
    if (!run) return [];
    const pages: unknown[] = [];
    for (const body of run.pages) {
      let parts: Record<string, unknown>;
      try {
        parts = normalizeParts('v3.recordQuery', { body });
      } catch {
        continue;
      }
      const kept = this.#answers.latestFor(assignmentId, 'v3.recordQuery', parts);
      if (kept) pages.push(kept.envelope);
    }
    return pages;
  }

  /** The workfile as one JSON file. */
  exportWorkfile(id: string): { filename: string; json: string } {
    const { project, details } = this.#require(id);
    this.#flushUnsaved();
    const kept = this.#answers.listWithEnvelopes(id);
    const content: WorkfileContent = {
      format: WORKFILE_FORMAT,
      version: WORKFILE_VERSION,
      exportedAt: this.#now().toISOString(),
      exportedBy: `Plat ${this.#o.appVersion}`,
      assignment: { ...projectIdentity(project), createdAt: project.createdAt, details },
      spentMicroUsd: this.#o.projectSpent(id),
      answers: kept.map(({ answer, envelope }) => ({
        id: answer.id,
        operation: answer.operation,
        request: answer.parts,
        ...answerFacts(answer),
        citations: citationsOf(envelope),
        envelope,
      })),
      choices: this.#answers.choices(id),
      queryLog: kept.map(({ answer }) => queryLogEntry(answer)),
      comparables: this.#comparables.find(id),
    };
    // Written only when there are some, so a workfile without them reads as it did before they were kept.
    const graphDecisions = this.#graphDecisions.list(id);
    if (graphDecisions.length > 0) content.graphDecisions = graphDecisions;
    const json = writeWorkfile(content, this.#o.signer ?? null);
    if (json.length > MAX_WORKFILE_LENGTH) {
      throw PlatFailure.from({
        code: 'response_too_large',
        message: `This workfile would be ${Math.ceil(json.length / 1024 / 1024)} MB, more than Plat can open again (${MAX_WORKFILE_LENGTH / 1024 / 1024} MB) — its ${kept.length} answers are too many to travel as one file`,
        retryable: false,
      });
    }
    return { filename: safeFilename(`${project.name} – workfile – ${localDay(this.#now())}.plat-workfile.json`), json };
  }

  /**
   * Opens a workfile exported by a Plat: a new assignment (named "… (imported)" when the name is
   * taken) holding every answer and choice, its answers put in the response cache under the service
   * that gave them. One commit: a refused file or a failed write leaves nothing behind.
   */
  importWorkfile(json: string): IpcProject & { workfileSignature: WorkfileSignature } {
    const { content, signature } = readSignedWorkfile(json, this.#o.signer?.fingerprint() ?? null);
    if (content.comparables !== null) {
      // Its shape was checked with the file; what a save would refuse is refused here too.
      try {
        checkWorkfile(content.comparables);
      } catch (error) {
        const why = error instanceof PlatFailure ? error.message.replace(/\.$/, '') : 'they break a rule of the comparables';
        throw new PlatFailure('invalid_payload', `This workfile's comparable sales cannot be used: ${why}. Nothing was imported`);
      }
    }
    const checked = content.answers.map((answer, index) => {
      // Each envelope is checked as the service client checks an answer before it is cached or shown.
      const envelope = operationSchemas[answer.operation].response.safeParse(answer.envelope);
      if (!envelope.success || record(envelope.data).status !== 'ok') {
        throw new PlatFailure('invalid_payload', `This workfile is damaged: answer ${index + 1} (${answer.label}) is not an answer the service gives. Nothing was imported`);
      }
      let parts: Record<string, unknown> | null;
      try {
        parts = normalizeParts(answer.operation, answer.request as RequestParts);
      } catch {
        // A request this Plat no longer accepts: its answer is kept and readable, but no request can reach it.
        parts = null;
      }
      return { answer, parts };
    });
    const created = inTransaction(this.#o.db, () => {
      const project = this.#o.projects.createAssignment({
        name: this.#freeName(content.assignment.name),
        spendingCapMicroUsd: content.assignment.capMicroUsd,
        details: content.assignment.details,
        createdAt: content.assignment.createdAt,
      });
      for (const { answer } of checked) {
        this.#answers.add({
          projectId: project.id,
          operation: answer.operation,
          parts: answer.request,
          ...answerFacts(answer),
          citationCount: citationsOf(answer.envelope).length,
          envelope: answer.envelope,
        });
      }
      for (const choice of content.choices) this.#answers.setChoice(project.id, choice.field, choice);
      if (content.comparables !== null) this.#comparables.put(project.id, content.comparables, content.comparables.savedAt ?? content.exportedAt);
      if (content.graphDecisions) this.#graphDecisions.restore(project.id, content.graphDecisions);
      this.#cacheAnswers(checked);
      return project;
    });
    return { ...this.ipcProject(created.id), workfileSignature: signature };
  }

  /** The latest answer per request goes in the cache, marked with what it cost (so it does not expire as a free answer would). */
  #cacheAnswers(checked: Array<{ answer: WorkfileContent['answers'][number]; parts: Record<string, unknown> | null }>): void {
    const byKey = new Map<string, { answer: WorkfileContent['answers'][number]; parts: Record<string, unknown>; charged: number }>();
    for (const { answer, parts } of checked) {
      if (parts === null) continue;
      const key = canonicalRequestKey(answer.connectionId, answer.operation, parts);
      const earlier = byKey.get(key);
      const charged = Math.max(earlier?.charged ?? 0, answer.chargedMicroUsd);
      if (!earlier || answer.at >= earlier.answer.at) byKey.set(key, { answer, parts, charged });
      else earlier.charged = charged;
    }
    for (const [key, { answer, parts, charged }] of byKey) {
      this.#o.cache.put(key, {
        value: answer.envelope,
        servedAt: answer.servedAt,
        requestId: answer.requestId ?? '',
        // Served from the cache where it was exported (charge unknown here): it is worth what it costs to buy.
        // (Not known on that connection: it keeps the largest charge seen for it there, if any.)
        chargedMicroUsd: charged > 0 ? charged : (this.listPrice(answer.operation, parts, answer.connectionId) ?? 0),
        storedAt: this.#now().getTime(),
      });
    }
  }

  /** What a request costs to buy on a connection (whatever the cache holds); null when its price is not known there. */
  listPrice(operation: ServiceOperationName, parts: RequestParts, connectionId?: string): number | null {
    const v3Request = v3PriceRequestOf(operation, parts);
    const items = itemsOf(operation, parts);
    return this.#o.estimator.estimate({
      operation,
      cached: false,
      ...(connectionId !== undefined ? { connectionId } : {}),
      ...(v3Request ? { v3Request } : {}),
      ...(items ? { items } : {}),
    }).expectedCostMicroUsd;
  }

  /** `name`, or "name (imported)", "name (imported 2)"… whichever no open project has. */
  #freeName(name: string): string {
    const base = normalizeProjectName(name);
    if (!this.#o.projects.nameTaken(base)) return base;
    for (let n = 1; ; n++) {
      const suffix = n === 1 ? ' (imported)' : ` (imported ${n})`;
      const stem = [...base].slice(0, PROJECT_NAME_MAX_LENGTH - suffix.length).join('').trimEnd();
      if (!this.#o.projects.nameTaken(`${stem}${suffix}`)) return `${stem}${suffix}`;
    }
  }

  #require(id: string) {
    const project = this.#o.projects.get(id);
    if (!project) throw new PlatFailure('not_found', 'There is no such assignment');
    const details = this.#o.projects.assignmentDetails(id);
    if (!details) throw new ProjectError(`"${project.name}" is a project, not an assignment: it has no subject`);
    return { project, details };
  }

  #flushUnsaved(): void {
    while (this.#unsaved.length > 0) {
      try {
        this.#answers.add(this.#unsaved[0] as NewKeptAnswer);
      } catch (error) {
        // The disk refused (full, read-only): keep it for the next write. Anything else cannot succeed later.
        if (storageProblemOf(error) !== null) return;
      }
      this.#unsaved.shift();
    }
  }
}
