// UI state of the Catalog view, kept outside the component so that opening an entity (which replaces
// the view) and coming back finds the same tab, jurisdiction and source.
import { create } from 'zustand';
import type { JurisdictionCode } from '../../../shared/jurisdictions.ts';
import type { V2CatalogFacet } from '../../../shared/service/v2.ts';
import { DEFAULT_JURISDICTION } from './catalog-model.ts';

/** The v4 sources of one jurisdiction, or one of the v2 facets (one of which is also called `sources`). */
export type CatalogTab = 'by_jurisdiction' | V2CatalogFacet;

interface CatalogUiState {
  tab: CatalogTab;
  jurisdiction: JurisdictionCode;
  /** The source whose fields are shown, or null. */
  selectedSourceId: string | null;
  setTab: (tab: CatalogTab) => void;
  setJurisdiction: (code: JurisdictionCode) => void;
  selectSource: (sourceId: string | null) => void;
}

export const useCatalogUi = create<CatalogUiState>((set) => ({
  tab: 'by_jurisdiction',
  jurisdiction: DEFAULT_JURISDICTION,
  selectedSourceId: null,
  setTab: (tab) => set({ tab }),
  setJurisdiction: (jurisdiction) => set({ jurisdiction, selectedSourceId: null }),
  selectSource: (selectedSourceId) => set({ selectedSourceId }),
}));
