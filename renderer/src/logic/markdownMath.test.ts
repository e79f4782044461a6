import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { markdownMath } from './markdownMath.js';

const md = new MarkdownIt({ html: true }).use(markdownMath);

describe('markdownMath', () => {
  it('keeps inline TeX out of emphasis and escapes it', () => {
    const html = md.render('Rate $a_1 * b_2 < c$ applies');
    expect(html).toContain('<span class="recto-math" data-display="inline">a_1 * b_2 &lt; c</span>');
    expect(html).not.toContain('<em>');
  });

  it('renders $$ blocks on one line or several', () => {
    expect(md.render('$$x^2$$\n')).toContain('<div class="recto-math" data-display="block">x^2</div>');
    const multi = md.render('$$\n\\sum_i x_i\n= 1\n$$\n\nAfter');
    expect(multi).toContain('<div class="recto-math" data-display="block">\\sum_i x_i\n= 1</div>');
    expect(multi).toContain('<p>After</p>');
  });

  it('leaves prices alone', () => {
    const html = md.render('Total $ 5.00 and $12 or $5 and $6');
    expect(html).not.toContain('recto-math');
  });

  it('leaves code spans and HTML tables to their own rules', () => {
    expect(md.render('`$x$`')).toContain('<code>$x$</code>');
    const table = md.render('<table><tr><td>$x$</td></tr></table>\n');
    expect(table).toContain('<td>$x$</td>');
  });
});
