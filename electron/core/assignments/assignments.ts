// Assignments, the appraiser's workfile: a project with a subject, an effective date and its client,
// plus every answer used while it was active. Attaching happens where every service call the person
// asks for passes (app-core's observed call), so the gateway is untouched; everything here reads the
// local store only: reopening an assignment or anything in it is free and works with the service
// unreachable. Export and import carry the whole workfile. An imported answer is the file's word, not
// a purchase: it stays inside the assignment it was imported into (never in the response cache, where
// it would answer any assignment's question), says where it came from everywhere it is shown, and a
// re-check buys it again from the service and says what changed.
//
// The comparable-sales work is saved as the appraiser's workfile (comparables-store.ts); the answers
// its searches bought are kept like any other and found again by the request bodies each search
// recorded, so the grid, the report and a reviewer read the very answers that were paid for.
import type { DatabaseSync } from 'node:sqlite';
import { characteristicKeyOf, reportChoicesOf, withSubjectChoice } from '../../../shared/comparables/subject/resolve.ts';
import type { AssignmentDetails, CallBilling, ImportedAnswers, Project as IpcProject, RecheckResult, ValueChoice, WorkfileSignature } from '../../../shared/ipc.ts';
import type { CompSearchRun, ComparablesWorkfile } from '../../../shared/comparables/model.ts';
import type { SubjectReportInput } from '../../../shared/report/build-subject-report.ts';
import { titleResearchOperations, type TitleResearchInput } from '../../../shared/report/title-research-section.ts';
import { canonicalJson } from '../../../shared/canonical-json.ts';
import { operationSchemas, type ServiceOperationName } from '../../../shared/service/index.ts';
import { safeFilename } from '../../../shared/filename.ts';
import { inTransaction, storageProblemOf } from '../app-db.ts';
import { answerChanges } from '../../../shared/workfile/answer-changes.ts';
import { receivedFrom, receivedNote, receivedText } from '../../../shared/workfile/received.ts';
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
  /** The comparables workfile, its last search's kept pages, the market-sales search's kept pages and the kept sale-record searches (a deed's other lots); null when no search was run. */
  comparables: { workfile: ComparablesWorkfile; pages: unknown[]; marketPages: unknown[]; lotAnswers: unknown[] } | null;
};

/** The comparables screen's sources: the saved workfile, the kept subject report, the last search's kept pages. */
export interface ComparablesSources {
  workfile: ComparablesWorkfile;
  /** The kept report_subject_v1 envelope for the assignment's subject, or null. */
  subject: unknown;
  /** The kept v4 summary envelope of the subject, or null: with `subject` it resolves the one subject (shared/comparables/subject/). */
  summary: unknown;
  /** The kept envelope of each page of the last search, in page order (a page not kept is left out). */
  pages: unknown[];
  /** The kept v4 searches of sale records (a deed's other lots, by its date and price), oldest first. */
  lotAnswers: unknown[];
  /** The same for the market-sales search (market conditions), when one was bought. */
  marketPages: unknown[];
  /** Where the subject or a page came from when a workfile brought it ("Received in workfile …"); null when all were bought here. */
  receivedIn: string | null;
}

/** One request whose answer came in the workfile: its latest imported answer and every imported row of it. */
interface ImportedRequest {
  operation: ServiceOperationName;
  /** The request as this Plat normalises it; null when this Plat no longer accepts it as the file recorded it. */
  parts: Record<string, unknown> | null;
  latest: KeptAnswer;
  ids: string[];
}

type Kept = { answer: KeptAnswer; envelope: unknown };

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

  /**
   * The assignment page: details, every kept answer (each imported one saying where it came from), the
   * spend against its cap, the choices, and for an imported assignment the price of re-checking what
   * the file brought on `connectionId` (the service calls go to now).
   */
  get(id: string, connectionId?: string) {
    this.#require(id);
    this.#flushUnsaved();
    const receivedIn = this.#receivedIn(id);
    const answers = this.#answers.list(id);
    return {
      project: this.ipcProject(id),
      answers: answers.map((answer) => toIpcAnswer(answer, receivedIn)),
      spentMicroUsd: this.#o.projectSpent(id),
      choices: this.#answers.choices(id),
      imported: receivedIn === null ? null : this.#imported(id, receivedIn, answers, connectionId),
    };
  }

  /** One kept answer with its envelope, from the local store. */
  answer(id: string, answerId: string) {
    this.#require(id);
    this.#flushUnsaved();
    const kept = this.#answers.get(id, answerId);
    if (!kept) throw new PlatFailure('not_found', 'This assignment holds no such answer');
    return { answer: toIpcAnswer(kept.answer, this.#receivedIn(id)), envelope: kept.envelope };
  }

  /** The sentence of the workfile the assignment was imported from; null for one made here. */
  #receivedIn(id: string): string | null {
    const from = this.#answers.importedFrom(id);
    return from ? receivedText(from) : null;
  }

  #imported(id: string, receivedIn: string, answers: readonly KeptAnswer[], connectionId: string | undefined): ImportedAnswers {
    const requests = this.#importedRequests(id).filter((request) => request.parts !== null);
    return {
      receivedIn,
      answers: answers.filter((answer) => answer.imported).length,
      recheck: {
        calls: requests.length,
        // A price not known on this connection makes the sum not known: never a guess.
        expectedCostMicroUsd: requests.reduce<number | null>((sum, request) => {
          const price = this.listPrice(request.operation, request.parts as RequestParts, connectionId);
          return sum === null || price === null ? null : sum + price;
        }, 0),
      },
    };
  }

  /** The requests the workfile brought answers to and no re-check has replaced, each once, in the order they were first asked. */
  #importedRequests(id: string): ImportedRequest[] {
    const byRequest = new Map<string, ImportedRequest>();
    for (const answer of this.#answers.list(id)) {
      if (!answer.imported) continue;
      let parts: Record<string, unknown> | null;
      try {
        parts = normalizeParts(answer.operation, answer.parts as RequestParts);
      } catch {
        parts = null;
      }
      const key = `${answer.operation} ${parts === null ? `row ${answer.id}` : canonicalJson(parts)}`;
      const earlier = byRequest.get(key);
      if (earlier) {
        earlier.latest = answer;
        earlier.ids.push(answer.id);
      } else byRequest.set(key, { operation: answer.operation, parts, latest: answer, ids: [answer.id] });
    }
    return [...byRequest.values()];
  }

  /**
   * Buys again every request the workfile brought an answer to (`buy` goes through the gateway with
   * the cache skipped and keeps the bought answer with this assignment, the active one), drops the
   * imported answers it replaced, and says field by field what changed. A request that fails keeps
   * its imported answer, and says why.
   */
  async recheckImported(
    id: string,
    how: {
      /** Makes the assignment the active one before anything is bought, so the purchases are charged to it and kept with it. */
      activate: () => void;
      buy: (operation: ServiceOperationName, parts: RequestParts) => Promise<{ envelope: unknown; billing: CallBilling }>;
    },
  ): Promise<RecheckResult> {
    this.#require(id);
    this.#flushUnsaved();
    const result: RecheckResult = { replaced: [], failed: [], chargedMicroUsd: 0, remaining: 0 };
    const requests = this.#importedRequests(id);
    if (requests.some((request) => request.parts !== null)) how.activate();
    for (const request of requests) {
      const label = request.latest.label;
      if (request.parts === null) {
        result.failed.push({ label, message: 'This Plat no longer asks this request as the workfile recorded it, so it cannot buy it again.' });
        continue;
      }
      const before = this.#answers.get(id, request.latest.id)?.envelope;
      try {
        const bought = await how.buy(request.operation, request.parts as RequestParts);
        result.chargedMicroUsd += bought.billing.chargedMicroUsd;
        this.#answers.remove(id, request.ids);
        result.replaced.push({ label, ...answerChanges(before, bought.envelope) });
      } catch (error) {
        result.failed.push({ label, message: error instanceof Error ? error.message : String(error) });
      }
    }
    result.remaining = this.#answers.list(id).filter((answer) => answer.imported).length;
    return result;
  }

  setChoice(assignmentId: string, field: string, choice: { alternativeKey: string; reason: string } | null): ValueChoice[] {
    this.#require(assignmentId);
    if (choice !== null && choice.reason.trim() === '') throw new ProjectError('Say why you chose this value: the reason is kept and printed with the report');
    // A subject characteristic's choice is the comparables workfile's (shared/comparables/subject/): the
    // report, the grid and the exports all apply it from there; none is kept beside it for the report alone.
    const characteristic = characteristicKeyOf(field);
    if (characteristic !== null) {
      const workfile = this.#comparables.get(assignmentId);
      const at = this.#now().toISOString();
      this.#comparables.save(assignmentId, withSubjectChoice(workfile, characteristic, choice && { ...choice, at }));
      this.#answers.setChoice(assignmentId, field, null);
      return this.#valueChoices(assignmentId);
    }
    this.#answers.setChoice(assignmentId, field, choice && { alternativeKey: choice.alternativeKey, reason: choice.reason.trim(), at: this.#now().toISOString() });
    return this.#valueChoices(assignmentId);
  }

  /** The appraiser's value choices: those kept with the answers, then the subject's characteristics' from the comparables workfile. */
  #valueChoices(assignmentId: string): ValueChoice[] {
    const fromWorkfile = reportChoicesOf(this.#comparables.get(assignmentId).subjectChoices);
    return [...this.#answers.choices(assignmentId).filter((choice) => !fromWorkfile.some((c) => c.field === choice.field)), ...fromWorkfile];
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
    const summary = this.#subjectSummary(assignmentId, ref);
    const subject = this.#subjectReport(assignmentId, ref);
    const workfile = this.#comparables.get(assignmentId);
    const pages = workfile.searches.length === 0 ? [] : this.#lastSearchPages(assignmentId, workfile);
    const marketPages = this.#keptPages(assignmentId, workfile.marketSearch);
    const titleResearch = this.#titleResearch(assignmentId);
    const read = [summary, subject, ...pages, ...marketPages].flatMap((kept) => (kept ? [kept.answer] : [])).concat(titleResearch.answers);
    return {
      assignment: { ...projectIdentity(project), details },
      subject: subject?.envelope ?? null,
      summary: summary?.envelope ?? null,
      choices: this.#answers.choices(assignmentId),
      queryLog: this.#answers.list(assignmentId).map(queryLogEntry),
      spentMicroUsd: this.#o.projectSpent(assignmentId),
      comparables: workfile.searches.length === 0 ? null : { workfile, pages: pages.map((kept) => kept.envelope), marketPages: marketPages.map((kept) => kept.envelope), lotAnswers: this.#saleSearches(assignmentId) },
      // The appraiser's choices of the subject's characteristics apply in the report whether or not a search was run.
      subjectChoices: workfile.subjectChoices ?? {},
      titleResearch: titleResearch.input,
      received: this.#received(assignmentId, read),
    };
  }

  /** What the report says of the answers it reads that came in the workfile; null when it reads none. */
  #received(assignmentId: string, read: readonly KeptAnswer[]): SubjectReportInput['received'] {
    const from = this.#answers.importedFrom(assignmentId);
    const labels = [...new Set(read.filter((answer) => answer.imported).map((answer) => answer.label))];
    if (!from || labels.length === 0) return null;
    // Every citation carries the note; with answers bought here too, it names the file's answers.
    const mixed = read.some((answer) => !answer.imported);
    return { text: receivedText(from), note: mixed ? receivedNote(from, labels) : receivedNote(from), answers: labels };
  }

  /**
   * What the report's title research reads: the kept answers of the graph, owner-search and record
   * operations (the latest answer to each request, with its normalised request parts) and the
   * researcher's decisions on links; null when the assignment holds neither.
   */
  #titleResearch(assignmentId: string): { input: TitleResearchInput | null; answers: KeptAnswer[] } {
    const latest = new Map<string, KeptAnswer>();
    for (const answer of this.#answers.list(assignmentId)) {
      if (!titleResearchOperations.has(answer.operation)) continue;
      const key = `${answer.operation} ${canonicalJson(answer.parts)}`;
      latest.delete(key);
      latest.set(key, answer);
    }
    const read = [...latest.values()].flatMap((answer) => {
      const kept = this.#answers.get(assignmentId, answer.id);
      return kept ? [kept] : [];
    });
    const answers = read.map(({ answer, envelope }) => ({ operation: answer.operation, request: answer.parts, envelope }));
    const decisions = this.graphDecisions(assignmentId);
    return { input: answers.length === 0 && decisions.length === 0 ? null : { answers, decisions }, answers: read.map(({ answer }) => answer) };
  }

  /** The comparables workfile with the kept answers it reads, all local: free, and it works with the service unreachable. */
  comparablesSources(assignmentId: string): ComparablesSources {
    const { details } = this.#require(assignmentId);
    this.#flushUnsaved();
    const workfile = this.#comparables.get(assignmentId);
    const subject = this.#subjectReport(assignmentId, details.subjectRef);
    const summary = this.#subjectSummary(assignmentId, details.subjectRef);
    const pages = this.#lastSearchPages(assignmentId, workfile);
    const marketPages = this.#keptPages(assignmentId, workfile.marketSearch);
    const from = [subject, summary, ...pages, ...marketPages].some((kept) => kept?.answer.imported === true) ? this.#receivedIn(assignmentId) : null;
    return { workfile, subject: subject?.envelope ?? null, summary: summary?.envelope ?? null, pages: pages.map((kept) => kept.envelope), marketPages: marketPages.map((kept) => kept.envelope), lotAnswers: this.#saleSearches(assignmentId), receivedIn: from };
  }

  /** The latest kept answer to each v4 search of sale records (the screening reads a deed's other lots from them), oldest first. */
  #saleSearches(assignmentId: string): unknown[] {
    const latest = new Map<string, KeptAnswer>();
    for (const answer of this.#answers.list(assignmentId)) {
      if (answer.operation !== 'v4.search' || record(record(answer.parts).query).kind !== 'sale') continue;
      const key = canonicalJson(answer.parts);
      latest.delete(key);
      latest.set(key, answer);
    }
    return [...latest.values()].flatMap((answer) => {
      const kept = this.#answers.get(assignmentId, answer.id);
      return kept ? [kept.envelope] : [];
    });
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

  /** The latest kept v4 summary of the subject, with its envelope, or null. */
  #subjectSummary(assignmentId: string, ref: string): Kept | null {
    return this.#answers.latest(assignmentId, 'v4.summary', (parts) => record(parts.path).q_id === ref);
  }

  /** The latest kept report_subject_v1 answer for the subject, with its envelope, or null. */
  #subjectReport(assignmentId: string, ref: string): Kept | null {
    const subject = this.#answers.latest(assignmentId, 'v3.recordQuery', (parts) => {
      const body = record(parts.body);
      return body.mode === 'report' && body.projection === 'report_subject_v1' && body.subject_property_ref === ref;
    });
    return subject;
  }

  /**
   * For each request body the last search recorded, the latest kept answer to that very request (the
   * body normalised as the gateway normalises it, so defaults the renderer left out still match).
   * A body this Plat no longer accepts, or a page not kept, is left out.
   */
  #lastSearchPages(assignmentId: string, workfile: ComparablesWorkfile): Kept[] {
    return this.#keptPages(assignmentId, workfile.searches.at(-1));
  }

  /** For each request body of a run (a comps search or the market-sales search), the latest kept answer to it. */
  #keptPages(assignmentId: string, run: CompSearchRun | undefined): Kept[] {
    if (!run) return [];
    const pages: Kept[] = [];
    for (const body of run.pages) {
      let parts: Record<string, unknown>;
      try {
        parts = normalizeParts('v3.recordQuery', { body });
      } catch {
        continue;
      }
      const kept = this.#answers.latestFor(assignmentId, 'v3.recordQuery', parts);
      if (kept) pages.push(kept);
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
   * taken) holding every answer and choice, each answer marked as received in that file (`fileName`,
   * as the person chose it). Nothing goes in the response cache: anyone can write a workfile and
   * reseal its checksum, so its answers must never answer a question asked elsewhere, and the
   * connection id it names chooses nothing. One commit: a refused file or a failed write leaves nothing behind.
   */
  importWorkfile(json: string, fileName = ''): IpcProject & { workfileSignature: WorkfileSignature } {
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
      return answer;
    });
    const created = inTransaction(this.#o.db, () => {
      const project = this.#o.projects.createAssignment({
        name: this.#freeName(content.assignment.name),
        spendingCapMicroUsd: content.assignment.capMicroUsd,
        details: content.assignment.details,
        createdAt: content.assignment.createdAt,
      });
      this.#answers.setImportedFrom(
        project.id,
        receivedFrom({ fileName, exportedBy: content.exportedBy, exportedAt: content.exportedAt, assignmentName: content.assignment.name }),
        this.#now().toISOString(),
      );
      for (const answer of checked) {
        this.#answers.add({
          projectId: project.id,
          operation: answer.operation,
          parts: answer.request,
          ...answerFacts(answer),
          citationCount: citationsOf(answer.envelope).length,
          envelope: answer.envelope,
          imported: true,
        });
      }
      for (const choice of content.choices) this.#answers.setChoice(project.id, choice.field, choice);
      if (content.comparables !== null) this.#comparables.put(project.id, content.comparables, content.comparables.savedAt ?? content.exportedAt);
      if (content.graphDecisions) this.#graphDecisions.restore(project.id, content.graphDecisions);
      return project;
    });
    return { ...this.ipcProject(created.id), workfileSignature: signature };
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
