import { describe, expect, it } from 'vitest';
import { base64FromDataUrl, describeImport, mergeImportResults } from './fileImport.js';

describe('file import helpers', () => {
  it('takes the base64 payload of a data URL', () => {
    expect(base64FromDataUrl('data:application/pdf;base64,JVBERi0x')).toBe('JVBERi0x');
    expect(base64FromDataUrl('data:;base64,')).toBe('');
    expect(() => base64FromDataUrl('data:text/plain,hello')).toThrow(/could not read/);
  });
  it('merges per-file results and describes them', () => {
    const merged = mergeImportResults([
      { imported: [], duplicates: ['a.pdf'], errors: [] },
      { imported: [], duplicates: [], errors: [{ file: 'notes.txt', reason: 'not a PDF or image' }] },
    ]);
    expect(merged.errors).toEqual([{ file: 'notes.txt', reason: 'not a PDF or image' }]);
    expect(describeImport(merged)).toBe('1 already in the project (a.pdf) · 1 could not be imported');
  });
  it('names the document that already holds a refused file under another name', () => {
    const merged = mergeImportResults([
      { imported: [], duplicates: ['copy.pdf'], duplicateOf: [{ file: 'copy.pdf', documentId: 'd1', documentName: 'acme-17.pdf' }], errors: [] },
      { imported: [], duplicates: ['b.pdf'], duplicateOf: [{ file: 'b.pdf', documentId: 'd2', documentName: 'b.pdf' }], errors: [] },
    ]);
    expect(describeImport(merged)).toBe('2 already in the project (copy.pdf, the same file as acme-17.pdf; b.pdf)');
  });
});
