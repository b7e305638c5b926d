// UI state of the Search view: which tab is open, what has been typed in each tab, which search was
// last run and which page of it is showing. It lives outside the components so that opening an
// entity (which replaces the view) and coming back loses nothing. Service answers are not here:
// they stay in TanStack Query's cache, keyed by the request each page below describes.
import { create } from 'zustand';
import type { V2IdentifierScheme } from '../../../shared/service/index.ts';
import type { PropertySearchBody, PropertySearchForm } from './property-search.ts';
import type { RecordSearchForm, RecordSearchQuery } from './record-search.ts';

export type SearchTab = 'records' | 'properties' | 'resolve';
export const searchTabs: ReadonlyArray<{ id: SearchTab; label: string }> = [
  { id: 'records', label: 'Records' },
  { id: 'properties', label: 'Properties' },
  { id: 'resolve', label: 'Resolve' },
];

/** A paged search: the first page's request, the cursors of the pages after it, and the page showing. */
export interface PagedRun<Request> {
  first: Request;
  /** cursors[i] fetches page i + 2. */
  cursors: string[];
  /** 0-based. */
  page: number;
}

export function pageCursor<R>(run: PagedRun<R>, page: number = run.page): string | undefined {
  return page === 0 ? undefined : run.cursors[page - 1];
}

/** Moves to the page after the current one, remembering its cursor (a cursor already known is kept). */
export function nextPage<R>(run: PagedRun<R>, cursor: string): PagedRun<R> {
  const cursors = run.cursors.slice(0, run.page);
  cursors[run.page] = cursor;
  // Later pages reached before stay reachable only if they follow the same cursor.
  const kept = run.cursors[run.page] === cursor ? run.cursors.slice(run.page + 1) : [];
  return { ...run, cursors: [...cursors, ...kept], page: run.page + 1 };
}

export interface ResolveRun {
  body: { items: unknown[]; candidate_limit: number };
  /** The lines as they were when the run started (the text may be edited afterwards). */
  lines: Array<{ lineNumber: number; clientId: string; value: string; scheme: V2IdentifierScheme; refusedReason: string | null }>;
  areaUid: string;
}

let draftCounter = 0;
export const newDraftId = (): string => `f${++draftCounter}`;
/** An empty filter row, as a form starts with and as Add filter makes. */
export const blankFilterDraft = () => ({ id: newDraftId(), field: '', op: 'eq' as const, value: '' });

interface SearchState {
  tab: SearchTab;
  records: {
    form: RecordSearchForm;
    run: PagedRun<RecordSearchQuery> | null;
    /** The record whose full source row is open in the side panel. */
    openRecordRef: string | null;
  };
  properties: { form: PropertySearchForm; run: PagedRun<PropertySearchBody> | null };
  resolve: {
    text: string;
    areaUid: string;
    /** Hand-picked schemes, keyed by the line's text. */
    chosenSchemes: Record<string, V2IdentifierScheme>;
    run: ResolveRun | null;
  };
  setTab: (tab: SearchTab) => void;
  updateRecordsForm: (patch: Partial<RecordSearchForm>) => void;
  setRecordsRun: (run: PagedRun<RecordSearchQuery> | null) => void;
  openRecord: (recordRef: string | null) => void;
  updatePropertiesForm: (patch: Partial<PropertySearchForm>) => void;
  setPropertiesRun: (run: PagedRun<PropertySearchBody> | null) => void;
  updateResolve: (patch: Partial<Pick<SearchState['resolve'], 'text' | 'areaUid'>>) => void;
  chooseScheme: (lineText: string, scheme: V2IdentifierScheme | null) => void;
  setResolveRun: (run: ResolveRun | null) => void;
}

export const initialRecordsForm = (): RecordSearchForm => ({
  jurisdiction: '11001',
  kind: '',
  sourceId: '',
  filters: [blankFilterDraft()],
  limit: '50',
});

export const initialPropertiesForm = (): PropertySearchForm => ({
  areaUid: 'area_us_dc',
  filters: [blankFilterDraft()],
  sortField: '',
  sortDirection: 'asc',
  projection: 'identity_summary',
  limit: '20',
});

export const useSearchStore = create<SearchState>((set) => ({
  tab: 'records',
  records: { form: initialRecordsForm(), run: null, openRecordRef: null },
  properties: { form: initialPropertiesForm(), run: null },
  resolve: { text: '', areaUid: '', chosenSchemes: {}, run: null },
  setTab: (tab) => set({ tab }),
  updateRecordsForm: (patch) => set((state) => ({ records: { ...state.records, form: { ...state.records.form, ...patch } } })),
  setRecordsRun: (run) => set((state) => ({ records: { ...state.records, run, openRecordRef: null } })),
  openRecord: (recordRef) => set((state) => ({ records: { ...state.records, openRecordRef: recordRef } })),
  updatePropertiesForm: (patch) =>
    set((state) => ({ properties: { ...state.properties, form: { ...state.properties.form, ...patch } } })),
  setPropertiesRun: (run) => set((state) => ({ properties: { ...state.properties, run } })),
  updateResolve: (patch) => set((state) => ({ resolve: { ...state.resolve, ...patch } })),
  chooseScheme: (lineText, scheme) =>
    set((state) => {
      const chosenSchemes = { ...state.resolve.chosenSchemes };
      if (scheme === null) delete chosenSchemes[lineText];
      else chosenSchemes[lineText] = scheme;
      return { resolve: { ...state.resolve, chosenSchemes } };
    }),
  setResolveRun: (run) => set((state) => ({ resolve: { ...state.resolve, run } })),
}));
