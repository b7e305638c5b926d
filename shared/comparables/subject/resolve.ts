// One subject per assignment: every answer the assignment holds about the subject (the v3 subject
// report, the v4 summary, the permits in the report) gives candidates for each characteristic; Plat
// chooses by one rule (published before derived before synthetic, shared/report/conflicts.ts) unless
// the appraiser chose another with a reason (`workfile.subjectChoices`). The property page, the
// report's Building section, the grid's subject column (and so the regression, the UAD JSON, the CSV
// and the PDF) all read this, so the subject's year built is one year everywhere.
import type { ValueChoice } from '../../ipc.ts';
import { formatDay } from '../../format-date.ts';
import { isRecord } from '../../json-data.ts';
import { resolveCandidates, yearBuiltFromPermits, type Candidate, type PermitEvidence, type Resolution } from '../../report/conflicts.ts';
import { citationForRef, readAnswers, strings, text, type Answers, type Json } from '../../report/subject/answers.ts';
import { fieldCandidates, type FieldSpec } from '../../report/subject/fields.ts';
import type { ComparablesWorkfile } from '../model.ts';
import { findContradictions, storiesFromPermits, type SubjectContradiction } from './contradictions.ts';

export type { SubjectContradiction } from './contradictions.ts';

export const subjectCharacteristicKeys = [
  'yearBuilt',
  'effectiveYearBuilt',
  'yearRemodeled',
  'stories',
  'grossBuildingArea',
  'livingArea',
  'bedrooms',
  'fullBaths',
  'halfBaths',
  'grade',
  'condition',
  'landArea',
  'useCode',
] as const;
export type SubjectCharacteristicKey = (typeof subjectCharacteristicKeys)[number];

interface CharacteristicSpec {
  /** The report's section the value is printed in (its field is `<section>.<spec.key>`). */
  section: 'building' | 'land' | 'identity';
  spec: FieldSpec;
}

/** Each characteristic as the report names and formats it (shared/report/subject/sections.ts prints the same fields). */
export const subjectCharacteristicSpecs: Record<SubjectCharacteristicKey, CharacteristicSpec> = {
  yearBuilt: { section: 'building', spec: { key: 'year_built', label: 'Year built', format: 'year_built', summary: 'year_built' } },
  effectiveYearBuilt: { section: 'building', spec: { key: 'effective_year_built', label: 'Effective year built', format: 'effective_year_built', summary: 'effective_year_built' } },
  yearRemodeled: { section: 'building', spec: { key: 'year_remodeled', label: 'Year remodeled', format: 'year_remodeled' } },
  stories: { section: 'building', spec: { key: 'stories', label: 'Stories', format: 'stories' } },
  grossBuildingArea: { section: 'building', spec: { key: 'gross_area_sqft', label: 'Gross building area', format: 'gross_area_sqft', summary: 'gross_area_sqft' } },
  livingArea: { section: 'building', spec: { key: 'living_area_sqft', label: 'Living area', format: 'living_area_sqft', summary: 'living_area_sqft' } },
  bedrooms: { section: 'building', spec: { key: 'bedrooms', label: 'Bedrooms', format: 'bedrooms', summary: 'bedrooms' } },
  fullBaths: { section: 'building', spec: { key: 'full_bathrooms', label: 'Full bathrooms', format: 'full_bathrooms', summary: 'full_bathrooms' } },
  halfBaths: { section: 'building', spec: { key: 'half_bathrooms', label: 'Half bathrooms', format: 'half_bathrooms', summary: 'half_bathrooms' } },
  grade: { section: 'building', spec: { key: 'grade', label: 'Grade', format: 'grade' } },
  condition: { section: 'building', spec: { key: 'condition', label: 'Condition', format: 'condition' } },
  landArea: { section: 'land', spec: { key: 'land_area_square_feet', label: 'Land area', format: 'land_area_sqft', summary: 'land_area_sqft' } },
  useCode: { section: 'identity', spec: { key: 'use_code', label: 'Use code', format: 'use_code', summary: 'use_code' } },
};

/** The report's field for a characteristic (`building.year_built`): where its choice applies in the report. */
export const reportFieldOf = (key: SubjectCharacteristicKey): string => `${subjectCharacteristicSpecs[key].section}.${subjectCharacteristicSpecs[key].spec.key}`;

export interface ResolvedCharacteristic {
  key: SubjectCharacteristicKey;
  label: string;
  /** The report's field (`building.year_built`). */
  field: string;
  /** Null when no answer held gives a value (`why` says why). */
  resolution: Resolution | null;
  why: string;
}

export interface ResolvedSubject {
  characteristics: Record<SubjectCharacteristicKey, ResolvedCharacteristic>;
  contradictions: SubjectContradiction[];
}

export interface ResolveSubjectInput {
  /** The kept v3 `report_subject_v1` envelope, or null. */
  subject: unknown | null;
  /** The kept v4 summary envelope of the subject, or null. */
  summary: unknown | null;
  /** The assignment's effective date (YYYY-MM-DD): a remodel after it is not known as of it. */
  effectiveDate: string;
  choices: ComparablesWorkfile['subjectChoices'];
}

// ---------------------------------------------------------------------------------------------
// The answers' evidence

/** The building profile of the subject item, each field a cell carrying the profile's status and records. */
export function buildingProfile(item: Json | null): { section: Json | null; profile: Json | null } {
  const sections = isRecord(item?.sections) ? (item.sections as Json) : {};
  const section = (isRecord(sections.building) ? (sections.building as Json) : null) ?? (isRecord(item?.characteristics) ? (item.characteristics as Json) : null);
  if (!section) return { section: null, profile: null };
  // A profile's fields share its status, records and (for a synthetic profile) the record it was copied from.
  const profile: Json = {};
  for (const [key, value] of Object.entries(section)) {
    if (['status', 'source_refs', 'derived_from', 'limitations'].includes(key)) continue;
    profile[key] = isRecord(value) ? value : { value, status: section.status, source_refs: section.source_refs, derived_from: section.derived_from };
  }
  return { section, profile };
}

/** The permits the subject report lists, as evidence about the building. */
export function permitEvidence(answers: Answers, item: Json | null): PermitEvidence[] {
  const sections = isRecord(item?.sections) ? (item.sections as Json) : {};
  const permits = isRecord(sections.permit) ? (sections.permit as Json) : null;
  const records = Array.isArray(permits?.records) ? permits.records.filter(isRecord) : [];
  return records.flatMap((record) => {
    const number = text(record.record_number);
    const refs = strings(record.source_refs);
    if (!number || refs.length === 0) return [];
    const date = text(record.record_date);
    return [
      {
        recordNumber: number,
        recordType: text(record.record_type),
        description: text(record.description),
        date: date ? formatDay(date) : null,
        citations: refs.map((ref) => citationForRef(answers, ref)),
      },
    ];
  });
}

const yearOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) ? value : typeof value === 'string' && /^\d{4}$/.test(value.trim()) ? Number(value) : null;

/**
 * Candidates other evidence gives for a building field (a new-construction permit for the year built
 * and the stories), beside the record's and the summary's own: the report's Building section asks
 * here too.
 */
export function evidenceCandidates(fieldKey: string, recorded: readonly Candidate[], permits: readonly PermitEvidence[]): Candidate[] {
  if (fieldKey === 'year_built') {
    const years = recorded.map((candidate) => yearOf(candidate.raw)).filter((year): year is number => year !== null);
    const fromPermit = years.length > 0 ? yearBuiltFromPermits(permits, Math.min(...years), 3) : null;
    return fromPermit ? [fromPermit] : [];
  }
  if (fieldKey === 'stories') {
    const fromPermit = storiesFromPermits(permits, 3);
    return fromPermit && !recorded.some((candidate) => Number(candidate.raw) === fromPermit.raw) ? [fromPermit] : [];
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// Resolving

export function resolveSubject(input: ResolveSubjectInput): ResolvedSubject {
  const answers = readAnswers(input.subject, input.summary);
  return resolveFromAnswers(answers, input.effectiveDate, input.choices);
}

export function resolveFromAnswers(answers: Answers, effectiveDate: string, choices: ResolveSubjectInput['choices']): ResolvedSubject {
  const item = answers.item;
  const sections = isRecord(item?.sections) ? (item.sections as Json) : {};
  const { section: building, profile } = buildingProfile(item);
  const permits = permitEvidence(answers, item);
  const characteristics = {} as Record<SubjectCharacteristicKey, ResolvedCharacteristic>;
  for (const key of subjectCharacteristicKeys) {
    const { section, spec } = subjectCharacteristicSpecs[key];
    const json = section === 'building' ? profile : isRecord(sections[section]) ? (sections[section] as Json) : null;
    const refs = section === 'building' ? [] : strings(json?.source_refs);
    const status = section === 'building' ? building?.status : section === 'identity' ? 'reported' : json?.status;
    const { candidates, fromReport } = fieldCandidates(answers, json, spec, refs, status);
    if (section === 'building') candidates.push(...evidenceCandidates(spec.key, candidates, permits));
    const choice = choices?.[key];
    const why =
      fromReport?.limitation ??
      (building?.status === 'unavailable' && section === 'building' ? (strings(building.limitations)[0] ?? 'No building characteristics in the answers.') : null) ??
      (item ? 'Not in the answers held for this assignment.' : 'Not bought yet: the subject report (report_subject_v1) answers this.');
    characteristics[key] = {
      key,
      label: spec.label,
      field: reportFieldOf(key),
      resolution: candidates.length === 0 ? null : resolveCandidates(candidates, choice ? { alternativeKey: choice.alternativeKey, reason: choice.reason, at: choice.at } : null),
      why,
    };
  }
  return { characteristics, contradictions: findContradictions(characteristics, permits, effectiveDate) };
}

/** The appraiser's subject choices as the report's value choices (by the report's field). */
export function reportChoicesOf(subjectChoices: ComparablesWorkfile['subjectChoices']): ValueChoice[] {
  return Object.entries(subjectChoices ?? {}).flatMap(([key, act]) =>
    (subjectCharacteristicKeys as readonly string[]).includes(key) ? [{ field: reportFieldOf(key as SubjectCharacteristicKey), alternativeKey: act.alternativeKey, reason: act.reason, at: act.at }] : [],
  );
}

/** The chosen value's year, when it is one (a permit's "2012 or later" is 2012). */
export const chosenYear = (characteristic: ResolvedCharacteristic): number | null => yearOf(characteristic.resolution?.chosen.raw);

/** The chosen value as a number, when it is one. */
export function chosenNumber(characteristic: ResolvedCharacteristic): number | null {
  const raw = characteristic.resolution?.chosen.raw;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  return Number.isFinite(value) ? value : null;
}

/** The characteristic a report field is (`building.year_built` → yearBuilt), or null: its choice is kept in the workfile's `subjectChoices`. */
export function characteristicKeyOf(field: string): SubjectCharacteristicKey | null {
  return subjectCharacteristicKeys.find((key) => reportFieldOf(key) === field) ?? null;
}

/** The workfile with the appraiser's choice for a characteristic set (with its reason and time), or withdrawn (null). */
export function withSubjectChoice(
  workfile: ComparablesWorkfile,
  key: SubjectCharacteristicKey,
  choice: { alternativeKey: string; reason: string; at: string } | null,
): ComparablesWorkfile {
  const choices = { ...(workfile.subjectChoices ?? {}) };
  if (choice === null) delete choices[key];
  else choices[key] = { alternativeKey: choice.alternativeKey, reason: choice.reason.trim(), at: choice.at };
  return { ...workfile, subjectChoices: choices };
}
