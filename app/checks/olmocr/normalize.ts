/**
 * Text normalisation as in olmOCR-Bench's `normalize_text` (olmocr/bench/tests.py), applied to both the page output
 * and the test strings before matching: `<br>` → space, Markdown bold/italic markers and `<b>`/`<i>` tags removed
 * (per line: JS `.` does not match a newline, like Python's), whitespace runs → one space, Unicode NFC, typographic
 * quotes/dashes → ASCII, micro sign → Greek mu.
 */
const replacements: [RegExp, string][] = [
  [/[‘’‚]/g, "'"],
  [/[“”„]/g, '"'],
  [/＿/g, '_'],
  [/[–—‑‒−]/g, '-'],
  [/\u00b5/g, '\u03bc'],
];

/**
 * Text that none of the steps below can change: ASCII (NFC is the identity on it) without `<`, `*`, `_`, and without
 * whitespace other than single spaces. Most test strings and table cells are such text; they skip the dozen regex
 * passes (the olmOCR test derivation normalises thousands of short strings per page).
 */
const mayChange = /[^\x20-\x7e]|[<*_]| {2}/;

export function normalizeBenchText(text: string): string {
  return mayChange.test(text) ? normalizeBenchTextFully(text) : text;
}

/** Upstream's steps, every one of them, on any text (`normalizeBenchText` skips text they cannot change). */
export function normalizeBenchTextFully(text: string): string {
  // Same order as upstream: emphasis is stripped before whitespace is collapsed, so a `*` pair never spans lines.
  let out = text.replace(/<br\/?>/g, ' ');
  out = out.replace(/\*\*(.*?)\*\*/g, '$1');
  out = out.replace(/__(.*?)__/g, '$1');
  out = out.replace(/<\/?b>/g, '');
  out = out.replace(/<\/?i>/g, '');
  out = out.replace(/(\*\*|__)(.*?)\1/g, '$2');
  out = out.replace(/(\*|_)(.*?)\1/g, '$2');
  out = out.replace(/\s+/g, ' ');
  out = out.normalize('NFC');
  for (const [pattern, ascii] of replacements) out = out.replace(pattern, ascii);
  return out;
}
