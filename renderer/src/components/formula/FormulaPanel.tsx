/**
 * The formula under the cursor: its TeX in a text box, rendered live by KaTeX beside the crop of the page where it
 * sits. A parse error is shown with its message and a marker at its position in the TeX, under the last rendering that
 * worked (or KaTeX's own error rendering of the source) — never a blank box.
 */
import katex from 'katex';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';

interface FormulaPanelProps {
  tex: string;
  display: boolean;
  /** Identifies the formula on the page; a new one forgets the last good rendering. */
  formulaKey: string;
  crop: ReactNode;
  onChange(tex: string): void;
  /** The source box lost the focus: the formula is no longer held open while invalid. */
  onDone(): void;
  onClose(): void;
}

export interface FormulaRendering {
  html: string;
  error: { message: string; position: number | null } | null;
}

/** KaTeX's HTML for the TeX, or the parse error with its position (offset into `tex`) where KaTeX gives one. */
export function renderFormula(tex: string, display: boolean): FormulaRendering {
  try {
    return { html: katex.renderToString(tex, { displayMode: display, throwOnError: true, trust: false, output: 'html' }), error: null };
  } catch (error) {
    const parseError = error instanceof katex.ParseError ? error : null;
    const message = parseError ? parseError.rawMessage : error instanceof Error ? error.message : String(error);
    const html = katex.renderToString(tex, { displayMode: display, throwOnError: false, trust: false, output: 'html' });
    return { html, error: { message, position: typeof parseError?.position === 'number' ? parseError.position : null } };
  }
}

/** Characters of TeX shown on each side of an error's position. */
const errorContext = 24;

export function FormulaPanel({ tex, display, formulaKey, crop, onChange, onDone, onClose }: FormulaPanelProps) {
  const rendering = useMemo(() => renderFormula(tex, display), [tex, display]);
  const lastGood = useRef<{ key: string; html: string } | null>(null);
  useEffect(() => {
    if (!rendering.error) lastGood.current = { key: formulaKey, html: rendering.html };
  }, [rendering, formulaKey]);
  const fallback = lastGood.current?.key === formulaKey ? lastGood.current.html : rendering.html;
  const { error } = rendering;
  const position = error?.position ?? null;

  return (
    <section className="tool-panel formula-panel" aria-label="Formula" data-testid="formula-panel">
      <div className="tool-toolbar">
        <span className="tool-title">{display ? 'Display formula' : 'Inline formula'}</span>
        <span className="toolbar-spacer" />
        <button className="icon-button" title="Close the formula editor" aria-label="Close the formula editor" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="tool-body formula-body">
        <div className="tool-crop">{crop ?? <div className="muted tool-crop-empty">No box on the page for this formula.</div>}</div>
        <div className="formula-edit">
          <textarea
            className="formula-source"
            data-testid="formula-source"
            value={tex}
            spellCheck={false}
            aria-label="TeX source"
            onChange={(event) => onChange(event.target.value)}
            onBlur={onDone}
            onKeyDown={(event) => {
              if (event.key === 'Escape') onClose();
            }}
          />
          <div className={error ? 'formula-render stale' : 'formula-render'} data-testid="formula-render" dangerouslySetInnerHTML={{ __html: error ? fallback : rendering.html }} />
          {error && (
            <div className="formula-error" role="alert" data-testid="formula-error">
              <div>
                {error.message}
                {position !== null && ` (at character ${position + 1})`}
              </div>
              {position !== null && (
                <code className="formula-error-context" data-testid="formula-error-context">
                  {tex.slice(Math.max(0, position - errorContext), position)}
                  <mark>{tex.slice(position, position + 1) || ' '}</mark>
                  {tex.slice(position + 1, position + 1 + errorContext)}
                </code>
              )}
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
