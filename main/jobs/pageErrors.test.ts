import { describe, expect, it } from 'vitest';
import { pageLabel, withoutPageLabel } from './pageErrors.js';

describe('page errors', () => {
  it('lose every leading copy of their own label, nothing else', () => {
    const label = pageLabel({ documentName: 'northwind-invoice.pdf', pageNumber: 1 });
    expect(withoutPageLabel(`${label}: ${label}: no answer from http://gpu:8000`, label)).toBe('no answer from http://gpu:8000');
    expect(withoutPageLabel('northwind-invoice.pdf p. 12: other page', label)).toBe('northwind-invoice.pdf p. 12: other page');
    expect(withoutPageLabel(`timeout (${label}: inner)`, label)).toBe(`timeout (${label}: inner)`);
  });
});
