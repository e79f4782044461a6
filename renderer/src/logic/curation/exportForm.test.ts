import { describe, expect, it } from 'vitest';
import { contractMethods } from '../../../../app/contract/methods.js';
import { suggestedOutDir, toExportRequest } from './exportForm.js';

describe('toExportRequest', () => {
  it('sends the folder, the images choice and only the filters chosen', () => {
    expect(toExportRequest({ outDir: ' /tmp/out ', status: '', since: '', images: 'png' })).toEqual({
      request: { outDir: '/tmp/out', images: 'png' },
    });
    const result = toExportRequest({ outDir: '/tmp/out', status: 'approved', since: '2026-11-01', images: 'none' });
    expect(result).toEqual({ request: { outDir: '/tmp/out', images: 'none', status: 'approved', since: '2026-11-01T00:00:00Z' } });
    if ('request' in result) expect(contractMethods['corpus.export'].request.safeParse(result.request).success).toBe(true);
  });
  it('asks for a folder and refuses a bad date instead of sending them', () => {
    expect(toExportRequest({ outDir: '  ', status: '', since: '', images: 'png' })).toEqual({ problem: 'Choose the folder to export into.' });
    expect(toExportRequest({ outDir: '/x', status: '', since: '2026-13-45', images: 'png' })).toHaveProperty('problem');
  });
});

describe('suggestedOutDir', () => {
  it('proposes a folder next to the project', () => {
    expect(suggestedOutDir('/work/invoices.recto')).toBe('/work/invoices-corpus');
    expect(suggestedOutDir('C:\\data\\q3.recto')).toBe('C:\\data\\q3-corpus');
    expect(suggestedOutDir(null)).toBe('');
  });
});
