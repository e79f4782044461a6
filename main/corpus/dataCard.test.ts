import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { markdownText, renderDataCard } from './dataCard.js';

describe('the data card', () => {
  it('prints project and engine names as text, never as Markdown or HTML', () => {
    const hostile = 'Q3 <script>alert(1)</script> [click](javascript:alert(1)) <javascript:alert(2)>\n# heading';
    const card = renderDataCard({
      projectName: hostile,
      records: [],
      tests: 0,
      testsByType: {},
      filters: { status: null, since: null, images: 'none' },
      skipped: 0,
    } as unknown as Parameters<typeof renderDataCard>[0]);
    const html = new MarkdownIt({ html: true, linkify: true }).render(card);
    expect(html).not.toContain('<script>');
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).not.toContain('<h1>heading');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(markdownText('a_b*c')).toBe('a\\_b\\*c');
  });
});
