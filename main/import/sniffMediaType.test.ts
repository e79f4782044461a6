import { describe, expect, it } from 'vitest';
import { sniffMediaType } from './sniffMediaType.js';

const bytes = (...values: Array<number | string>): Uint8Array =>
  new Uint8Array(values.flatMap((v) => (typeof v === 'string' ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe('sniffMediaType', () => {
  it('knows the supported kinds by their first bytes', () => {
    expect(sniffMediaType(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0))).toBe('image/png');
    expect(sniffMediaType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(sniffMediaType(bytes('II', 42, 0))).toBe('image/tiff');
    expect(sniffMediaType(bytes('MM', 0, 42))).toBe('image/tiff');
    expect(sniffMediaType(bytes('%PDF-1.7\n'))).toBe('application/pdf');
  });

  it('finds a PDF header after leading junk, as readers allow', () => {
    expect(sniffMediaType(bytes('\r\n\r\ngarbage', '%PDF-1.4'))).toBe('application/pdf');
  });

  it('refuses other content whatever the file is called', () => {
    expect(sniffMediaType(bytes('hello world'))).toBeNull();
    expect(sniffMediaType(bytes('GIF89a'))).toBeNull();
    expect(sniffMediaType(new Uint8Array(0))).toBeNull();
  });
});
