/**
 * A page being read: its Markdown as the engine decodes it, read-only, kept scrolled to the newest line. Engines that
 * do not stream text (the bundled engine) show their progress instead.
 */
import { useEffect, useRef } from 'react';
import { describeSpeed, type LiveText } from '../../state/useLiveReading.js';

export function LiveReadingView({ live }: { live: LiveText | null }) {
  const scroller = useRef<HTMLPreElement>(null);
  const text = live?.text ?? '';
  useEffect(() => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [text]);
  return (
    <div className="live-reading" data-testid="live-reading">
      <div className="live-reading-head">
        <span className="spinner small" aria-hidden="true" />
        <span>This page is being read{text ? ' — its Markdown so far:' : '…'}</span>
        <span className="toolbar-spacer" />
        {live && <span className="muted" data-testid="live-speed">{describeSpeed(live)}</span>}
      </div>
      {text ? (
        <pre className="live-reading-text" ref={scroller} aria-live="off" data-testid="live-text">
          {text}
          <span className="live-caret" aria-hidden="true" />
        </pre>
      ) : (
        live?.fraction != null && (
          <div className="live-reading-progress">
            <div className="progress-track">
              <div className="progress-fill" style={{ width: `${Math.round(live.fraction * 100)}%` }} />
            </div>
          </div>
        )
      )}
    </div>
  );
}
