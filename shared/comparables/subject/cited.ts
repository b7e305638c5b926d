// The resolved subject as cited values (their citations numbered in the caller's book), for the
// screens that show it: each characteristic with its alternatives and why it was chosen, and each
// contradiction cited to both sides.
import type { Cite } from '../../cited/citation-book.ts';
import type { CitedValue } from '../../cited/value.ts';
import { alternativeOf } from '../../report/conflicts.ts';
import { subjectCharacteristicKeys, type ResolvedSubject, type SubjectCharacteristicKey } from './resolve.ts';
import type { SubjectContradictionKind } from './contradictions.ts';

export interface SubjectCharacteristicView {
  key: SubjectCharacteristicKey;
  value: CitedValue;
  /** The chosen candidate's key (the appraiser may adopt it with a reason); null when unavailable. */
  chosenKey: string | null;
}

export interface SubjectContradictionView {
  kind: SubjectContradictionKind;
  key: SubjectCharacteristicKey;
  text: string;
  citationIds: string[];
}

const ids = (cite: Cite, citations: Parameters<Cite>[0][]) => [...new Set(citations.map(cite))];

export function citedSubject(resolved: ResolvedSubject, cite: Cite): { characteristics: SubjectCharacteristicView[]; contradictions: SubjectContradictionView[] } {
  const characteristics = subjectCharacteristicKeys.map((key): SubjectCharacteristicView => {
    const characteristic = resolved.characteristics[key];
    const resolution = characteristic.resolution;
    if (!resolution) {
      return {
        key,
        chosenKey: null,
        value: { field: characteristic.field, label: characteristic.label, raw: null, display: '—', status: 'unavailable', citationIds: [], derivedFrom: null, limitation: characteristic.why, alternatives: [], choice: null },
      };
    }
    const { chosen } = resolution;
    const limitation = [chosen.note, resolution.staleChoice].filter((part): part is string => part !== null).join(' ') || null;
    return {
      key,
      chosenKey: chosen.key,
      value: {
        field: characteristic.field,
        label: characteristic.label,
        raw: chosen.raw,
        display: chosen.display,
        status: chosen.status,
        citationIds: ids(cite, chosen.citations),
        derivedFrom: chosen.status === 'reported' ? null : chosen.derivedFrom,
        limitation,
        alternatives: resolution.alternatives.map((alternative) => alternativeOf(alternative, ids(cite, alternative.citations))),
        choice: resolution.choice,
      },
    };
  });
  const contradictions = resolved.contradictions.map((c) => ({ kind: c.kind, key: c.key, text: c.text, citationIds: ids(cite, c.citations) }));
  return { characteristics, contradictions };
}
