import type {
  SummaryAnnotation,
  SummaryCoding,
  SummaryDocument,
  SummarySection,
} from '@loopdesk/contracts/summaries.ts';
import type { TypeaheadResult } from '@loopdesk/contracts/intelligence.ts';

/**
 * The reviewer's edits of a clinical note (spec 2 §2 "editable summary … with entity
 * highlights"): pure rules, so the screen keeps only the DOM glue. A concept's codes (UMLS and
 * ICD-10) share its name (`code.value`); a highlight stands for the concept's first code.
 */

/** The coding systems of a note (spec 2 §9) and the knowledge base's names for them. */
const SYSTEMS: readonly { system: string; kb: string }[] = [
  { system: 'UMLS', kb: 'UMLS' },
  { system: 'ICD-10', kb: 'ICD10CM' },
];

/** Where the reviewer puts a highlight: a span of a section's text. */
export interface Span {
  sectionId: string;
  start: number;
  end: number;
}

/** A section's name, readable: `history_of_present_illness` → 'History of present illness'. */
export function sectionTitle(id: string): string {
  const words = id.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : id;
}

/** The codes a concept chosen in the typeahead brings: UMLS and ICD-10, entered by hand. */
export function codingsOf(concept: TypeaheadResult): SummaryCoding[] {
  const codings = SYSTEMS.flatMap(({ system, kb }) => {
    const found = concept.sources?.find((source) => source.system === kb);
    return found
      ? [{ source: 'manual', code: { system, code: found.code, value: concept.canonicalName } }]
      : [];
  });
  // A concept of the knowledge base without a UMLS code is still named by its own id.
  return codings.length > 0
    ? codings
    : [
        {
          source: 'manual',
          code: { system: 'Loopdesk', code: concept.conceptId, value: concept.canonicalName },
        },
      ];
}

/** The codes a highlight stands for: its own, and the others of the same concept (same name). */
export function codesOfAnnotation(
  document: SummaryDocument,
  annotation: SummaryAnnotation,
): SummaryCoding[] {
  const own = document.codes.find((coding) => coding.code.code === annotation.code);
  if (!own) {
    return [];
  }
  return document.codes.filter((coding) => coding.code.value === own.code.value);
}

/** Codes still used by a highlight (by its code or as another code of the same concept). */
function pruneCodes(document: SummaryDocument): SummaryDocument {
  const annotations = document.sections.flatMap((section) => section.annotations);
  const usedNames = new Set(
    annotations.flatMap((annotation) =>
      codesOfAnnotation(document, annotation).map((coding) => coding.code.value),
    ),
  );
  return { ...document, codes: document.codes.filter((c) => usedNames.has(c.code.value)) };
}

/** Adds the codes of a concept that the document does not list yet. */
function withCodings(document: SummaryDocument, codings: readonly SummaryCoding[]) {
  const known = new Set(document.codes.map((c) => `${c.code.system}|${c.code.code}`));
  return [
    ...document.codes,
    ...codings.filter((c) => !known.has(`${c.code.system}|${c.code.code}`)),
  ];
}

const mapSection = (
  document: SummaryDocument,
  sectionId: string,
  change: (section: SummarySection) => SummarySection,
): SummaryDocument => ({
  ...document,
  sections: document.sections.map((section) =>
    section.id === sectionId ? change(section) : section,
  ),
});

/** A new highlight id, unique in the document. */
function newAnnotationId(document: SummaryDocument): string {
  const ids = new Set(document.sections.flatMap((s) => s.annotations.map((a) => a.id)));
  let n = ids.size + 1;
  while (ids.has(`manual-${n}`)) {
    n += 1;
  }
  return `manual-${n}`;
}

/** Highlights `span` with a concept; a highlight it overlaps is replaced. */
export function addCode(
  document: SummaryDocument,
  span: Span,
  codings: readonly SummaryCoding[],
): SummaryDocument {
  const primary = codings[0];
  if (!primary || span.end <= span.start) {
    return document;
  }
  const id = newAnnotationId(document);
  const added = mapSection(document, span.sectionId, (section) => ({
    ...section,
    annotations: [
      ...section.annotations.filter((a) => a.end <= span.start || a.start >= span.end),
      { id, start: span.start, end: span.end, code: primary.code.code },
    ].sort((a, b) => a.start - b.start),
  }));
  return pruneCodes({ ...added, codes: withCodings(added, codings) });
}

/** Gives a highlight another concept. */
export function changeCode(
  document: SummaryDocument,
  annotationId: string,
  codings: readonly SummaryCoding[],
): SummaryDocument {
  const primary = codings[0];
  if (!primary) {
    return document;
  }
  const changed: SummaryDocument = {
    codes: withCodings(document, codings),
    sections: document.sections.map((section) => ({
      ...section,
      annotations: section.annotations.map((a) =>
        a.id === annotationId ? { ...a, code: primary.code.code } : a,
      ),
    })),
  };
  return pruneCodes(changed);
}

/** Removes a highlight, and the codes no other highlight stands for. */
export function removeCode(document: SummaryDocument, annotationId: string): SummaryDocument {
  return pruneCodes({
    ...document,
    sections: document.sections.map((section) => ({
      ...section,
      annotations: section.annotations.filter((a) => a.id !== annotationId),
    })),
  });
}

/**
 * A section's text edited: highlights before the change stay, those after it move with the text,
 * and those the change touches are dropped (their words are gone or different).
 */
export function editText(
  document: SummaryDocument,
  sectionId: string,
  content: string,
): SummaryDocument {
  const changed = mapSection(document, sectionId, (section) => {
    const before = section.content;
    let prefix = 0;
    while (
      prefix < before.length &&
      prefix < content.length &&
      before[prefix] === content[prefix]
    ) {
      prefix += 1;
    }
    let suffix = 0;
    while (
      suffix < before.length - prefix &&
      suffix < content.length - prefix &&
      before[before.length - 1 - suffix] === content[content.length - 1 - suffix]
    ) {
      suffix += 1;
    }
    const changedEnd = before.length - suffix;
    const shift = content.length - before.length;
    const annotations = section.annotations.flatMap((a) => {
      if (a.end <= prefix) {
        return [a];
      }
      if (a.start >= changedEnd) {
        return [{ ...a, start: a.start + shift, end: a.end + shift }];
      }
      return [];
    });
    return { ...section, content, annotations };
  });
  return pruneCodes(changed);
}

/** A section's text cut at its highlights, in order: plain runs and highlighted runs. */
export function segmentsOf(
  section: SummarySection,
): { text: string; annotation: SummaryAnnotation | null }[] {
  const segments: { text: string; annotation: SummaryAnnotation | null }[] = [];
  let at = 0;
  for (const annotation of [...section.annotations].sort((a, b) => a.start - b.start)) {
    if (annotation.start < at) {
      continue;
    }
    if (annotation.start > at) {
      segments.push({ text: section.content.slice(at, annotation.start), annotation: null });
    }
    segments.push({ text: section.content.slice(annotation.start, annotation.end), annotation });
    at = annotation.end;
  }
  if (at < section.content.length) {
    segments.push({ text: section.content.slice(at), annotation: null });
  }
  return segments;
}
