/** The rendered page: Markdown, HTML tables and KaTeX formulas, sanitised (see renderPreview). */
import { useEffect, useRef } from 'react';
import { renderPreview } from '../preview/renderPreview.js';

export function MarkdownPreview({ text }: { text: string }) {
  const target = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (target.current) renderPreview(target.current, text);
  }, [text]);
  return <div className="preview markdown-body" data-testid="preview" ref={target} />;
}
