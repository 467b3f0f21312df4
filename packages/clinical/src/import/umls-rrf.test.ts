import { describe, expect, it } from 'vitest';
import { KbItems } from '../kb/format.ts';
import { checkIntegrity } from '../kb/integrity.ts';
import { importUmlsRrf } from './umls-rrf.ts';

// UMLS is licensed, so the sample is written here: the shape of MRCONSO, MRSTY and MRREL rows,
// with made-up atom, string and relationship ids.
const MRCONSO = [
  'C0011991|ENG|P|L0011991|PF|S0031312|Y|A0048147||D003967|D003967|MSH|MH|D003967|Diarrhea|0|N|256|',
  'C0011991|ENG|P|L0011991|VO|S0031313|Y|A0048148||||MTH|PN|NOCODE|diarrhoea|0|N||',
  'C0011991|ENG|S|L0379622|PF|S0870093|Y|A0984121|||62315008|SNOMEDCT_US|SY|62315008|Loose stools|9|N||',
  'C0011991|ENG|P|L0011991|PF|S0031312|N|A2882134|||62315008|SNOMEDCT_US|PT|62315008|Diarrhea|9|N||',
  'C0011991|FRE|P|L0231234|PF|S0300001|Y|A0300001||||MSHFRE|MH|D003967|Diarrhée|3|N||',
  'C0011991|ENG|S|L9999999|PF|S9999999|Y|A9999999||||MTH|SY|NOCODE|Obsolete runs|0|O||',
  'C0012242|ENG|P|L0012242|PF|S0033333|Y|A0051111||D004066|D004066|MSH|MH|D004066|Digestive System Diseases|0|N||',
  'C0017160|ENG|P|L0017160|PF|S0041111|Y|A0071111||D005759|D005759|MSH|MH|D005759|Gastroenteritis|0|N||',
  'C0017160|ENG|S|L1234567|PF|S1234567|Y|A1234567||||CHV|SY|0000005443|stomach flu|0|N||',
  'C9999999|ENG|P|L9999998|PF|S9999998|Y|A9999998||||MTH|PN|NOCODE|Some gene|0|N||',
].join('\n');

const MRSTY = [
  'C0011991|T184|A2.2.2|Sign or Symptom|AT17683839|256|',
  'C0012242|T047|B2.2.1.2.1|Disease or Syndrome|AT17563221|256|',
  'C0017160|T047|B2.2.1.2.1|Disease or Syndrome|AT17565555|256|',
  'C0017160|T033|A2.2|Finding|AT17565556|256|',
  'C9999999|T028|A1.2.3.5|Gene or Genome|AT17599999|256|',
].join('\n');

// Read as "the second concept is REL of the first": gastroenteritis has the parent
// digestive system diseases (PAR), and digestive system diseases has the child gastroenteritis (CHD).
const MRREL = [
  'C0017160|A0071111|SCUI|PAR|C0012242|A0051111|SCUI||R0000001||MSH|MSH|||N||',
  'C0012242|A0051111|SCUI|CHD|C0017160|A0071111|SCUI||R0000002||MSH|MSH|||N||',
  'C0017160|A0071111|SCUI|RO|C0011991|A0048147|SCUI|has_manifestation|R0000003||MTH|MTH|||N||',
].join('\n');

describe('UMLS RRF import', () => {
  const { concepts } = importUmlsRrf({ mrconso: MRCONSO, mrsty: MRSTY, mrrel: MRREL });
  const byId = (id: string) => concepts.find((c) => c.id === id);

  it('makes one concept per classified CUI and leaves out unmapped semantic types', () => {
    expect(concepts.map((c) => c.id)).toEqual(['UMLS:C0011991', 'UMLS:C0012242', 'UMLS:C0017160']);
    expect(KbItems.safeParse({ concepts }).success).toBe(true);
  });

  it('names a concept by its preferred English atom; other English strings become aliases', () => {
    expect(byId('UMLS:C0011991')).toMatchObject({
      cui: 'C0011991',
      canonicalName: 'Diarrhea',
      aliases: ['diarrhoea', 'Loose stools'],
      class: 'symptom',
      provenance: [{ source: 'UMLS Metathesaurus', reference: 'C0011991' }],
    });
  });

  it('keeps source codes, not NOCODE, and skips suppressed and other-language atoms', () => {
    const diarrhea = byId('UMLS:C0011991');
    expect(diarrhea?.codes).toEqual([
      { system: 'UMLS', code: 'C0011991' },
      { system: 'MSH', code: 'D003967' },
      { system: 'SNOMEDCT_US', code: '62315008' },
    ]);
    expect(diarrhea?.aliases).not.toContain('Obsolete runs');
    expect(diarrhea?.aliases).not.toContain('Diarrhée');
  });

  it('prefers a disease class over a finding for a CUI with both types', () => {
    expect(byId('UMLS:C0017160')?.class).toBe('condition');
    expect(byId('UMLS:C0017160')?.aliases).toEqual(['stomach flu']);
  });

  it('reads PAR and CHD rows into one is_a parent', () => {
    expect(byId('UMLS:C0017160')?.parents).toEqual(['UMLS:C0012242']);
    expect(byId('UMLS:C0012242')?.parents).toEqual([]);
    expect(
      checkIntegrity({ concepts, relationships: [], complications: [], questions: [] }),
    ).toEqual([]);
  });

  it('can keep unclassified CUIs and other languages when asked', () => {
    const all = importUmlsRrf(
      { mrconso: MRCONSO, mrsty: MRSTY },
      { keepUnclassified: true, languages: ['ENG', 'FRE'] },
    ).concepts;
    expect(all.find((c) => c.id === 'UMLS:C9999999')?.class).toBe('observation');
    expect(all.find((c) => c.id === 'UMLS:C0011991')?.aliases).toContain('Diarrhée');
  });

  it('refuses a file that is not pipe-delimited RRF', () => {
    expect(() => importUmlsRrf({ mrconso: 'C0011991,ENG,P' })).toThrow('RRF line 1');
  });
});
