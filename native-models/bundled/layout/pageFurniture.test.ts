import { describe, expect, it } from 'vitest';
import type { LayoutWord } from './layoutTypes.js';
import { layoutPage } from './layoutPage.js';
import { line } from '../../../testing/syntheticWords.js';

/** A slide-like page, 1500 × 1125: a title and body in large type. */
const body = (): LayoutWord[] => [
  ...line('A Title In Large Type', 100, 280, 64),
  ...line('Body line one in the body type of the slide', 200, 600, 36),
  ...line('Body line two in the body type of the slide', 200, 650, 36),
  ...line('Body line three closes the body', 200, 700, 36),
];
const slide = { source: 'text-layer' as const, pageHeight: 1125 };

describe('small print near the page edge', () => {
  it('a short small-type line above the page number is the footer, even outside the narrow band', () => {
    const { markdown, elements, furniture } = layoutPage([...body(), ...line('NETS 2015', 1340, 1010, 17), ...line('1', 1470, 1100, 25)], slide);
    expect(markdown).not.toContain('NETS');
    expect(markdown).toContain('Body line three');
    expect(elements.map((e) => e.kind)).toEqual(['title', 'text', 'footer', 'page-number']);
    expect(furniture.map((f) => f.text)).toEqual(['NETS 2015', '1']);
  });

  it('a footnote, body-size text, or small print with body text below it stays in the body', () => {
    const footnote = layoutPage([...body(), ...line('1 See the appendix for the data', 200, 1010, 17)], slide);
    expect(footnote.markdown).toContain('See the appendix');
    const bodySize = layoutPage([...body(), ...line('Thank you for listening', 200, 1010, 36)], slide);
    expect(bodySize.markdown).toContain('Thank you for listening');
    // Body-size text between the small print and the edge (but above the narrow footer band): the note is body.
    const bodyBelow = layoutPage([...body(), ...line('small print note', 200, 985, 17), ...line('A body-size line near the bottom', 200, 1035, 36)], slide);
    expect(bodyBelow.markdown).toContain('small print note');
  });

  it('a small-type line close to the body is part of it; set well apart, it is furniture', () => {
    const apart = layoutPage([...body(), ...line('Body line four in the body type', 200, 750, 36), ...line('Note under the body', 200, 985, 17)], slide);
    expect(apart.markdown).not.toContain('Note under the body');
    const close = layoutPage([...body(), ...line('Body line four in the body type', 200, 930, 36), ...line('Note right under the body', 200, 975, 17)], slide);
    expect(close.markdown).toContain('Note right under the body');
  });
});
