import type { Code } from '../kb/format.ts';

/**
 * Turns an ontology cross-reference (`UMLS_CUI:C0004096`, `SNOMEDCT_US_2025_09_01:195967001`,
 * `ICD10CM:J45`) into a code. Dated SNOMED CT prefixes lose their date: the code is the same
 * concept in every release. Returns undefined for a reference without a prefix.
 */
export function xrefToCode(xref: string): Code | undefined {
  const colon = xref.indexOf(':');
  if (colon <= 0 || colon === xref.length - 1) {
    return undefined;
  }
  const prefix = xref.slice(0, colon).trim();
  const code = xref.slice(colon + 1).trim();
  let system = prefix;
  if (prefix === 'UMLS_CUI') {
    system = 'UMLS';
  } else if (prefix.startsWith('SNOMEDCT_US')) {
    system = 'SNOMEDCT_US';
  } else if (prefix === 'MIM') {
    system = 'OMIM';
  } else if (prefix === 'MSH') {
    system = 'MESH';
  }
  return { system, code };
}

const CUI = /^C\d{7}$/;

/** True when a code is a well-formed UMLS CUI. */
export function isCuiCode(code: Code): boolean {
  return code.system === 'UMLS' && CUI.test(code.code);
}
