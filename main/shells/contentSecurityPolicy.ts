/**
 * The Content-Security-Policy both shells send with the renderer: scripts only from the app itself, no eval, no
 * remote anything. Inline styles are allowed because Monaco and KaTeX set style attributes.
 */
/**
 * Headers of the evaluation report (main/evaluate/evaluationReportHtml.ts), which both shells serve for the Evaluate
 * view's link: a self-contained page of inline styles and SVG, so nothing else may load, and `sandbox` gives it an
 * origin of its own (no scripts, no access to the app's token or storage) even though it is served by the app.
 */
export const EVALUATION_REPORT_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export function contentSecurityPolicy(connectSources: string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${connectSources.join(' ')}`.trim(),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
