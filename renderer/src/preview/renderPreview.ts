/**
 * Renders page Markdown for the Preview tab. Order matters for safety: markdown-it (HTML allowed, for the engines'
 * `<table>` output) → DOMPurify (drops scripts, event handlers, javascript: URLs, forms, frames) → KaTeX on the math
 * placeholders and on `$…$` left inside HTML table cells. KaTeX only ever sees text, so it cannot inject markup.
 */
import DOMPurify from 'dompurify';
import katex from 'katex';
import renderMathInElement from 'katex/contrib/auto-render';
import MarkdownIt from 'markdown-it';
import { markdownMath } from '../logic/markdownMath.js';

const markdown = new MarkdownIt({ html: true, linkify: false, typographer: false }).use(markdownMath);

const purifyConfig = {
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
  FORBID_ATTR: ['style'],
  // Page images are the analyst's own; remote ones would leak that the document was opened.
  ALLOWED_URI_REGEXP: /^(?:#|data:image\/|blob:)/i,
};

export function renderPreview(target: HTMLElement, source: string): void {
  const html = DOMPurify.sanitize(markdown.render(source), purifyConfig);
  target.innerHTML = html;
  for (const placeholder of target.querySelectorAll<HTMLElement>('.recto-math')) {
    const tex = placeholder.textContent ?? '';
    katex.render(tex, placeholder, {
      displayMode: placeholder.dataset['display'] === 'block',
      throwOnError: false,
      trust: false,
      output: 'htmlAndMathml',
    });
  }
  // Math written inside raw HTML (table cells) never reached the markdown-it rule.
  renderMathInElement(target, {
    delimiters: [
      { left: '$$', right: '$$', display: true },
      { left: '\\[', right: '\\]', display: true },
      { left: '$', right: '$', display: false },
      { left: '\\(', right: '\\)', display: false },
    ],
    ignoredClasses: ['recto-math', 'katex'],
    throwOnError: false,
    trust: false,
  });
}
