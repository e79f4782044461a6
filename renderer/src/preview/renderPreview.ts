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
  // Links are not followed from the preview (a click would navigate the app away); remote images are already
  // refused by the CSP (img-src 'self' data: blob:), which also keeps an opened document from calling home.
  FORBID_ATTR: ['style', 'href', 'xlink:href', 'action', 'formaction'],
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
