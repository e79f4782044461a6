/** The status bar's count of unsure words left on the page, with the threshold that defines them. */
import type { ConfidenceMarksState } from '../../state/useConfidenceMarks.js';

export function ConfidenceStatus({ confidence }: { confidence: ConfidenceMarksState }) {
  const { left, placedCount, marks, threshold, setThreshold } = confidence;
  const unplaced = marks.length - placedCount;
  return (
    <span className="status-item confidence-status" title={`Words below the threshold; F8 / Shift+F8 go to the next / previous one${unplaced > 0 ? `. ${unplaced} more only on the page (not found in the text)` : ''}`}>
      <span data-testid="confidence-left" data-left={left} className={left > 0 ? 'confidence-left' : undefined}>
        {placedCount === 0 ? 'No unsure words' : `${left} of ${placedCount} unsure left`}
      </span>
      <label className="confidence-threshold">
        <span className="muted">below</span>
        <input
          type="number"
          min={1}
          max={100}
          step={5}
          value={Math.round(threshold * 100)}
          aria-label="Confidence threshold in percent"
          data-testid="confidence-threshold"
          onChange={(event) => {
            const value = Number(event.target.value);
            if (value > 0 && value <= 100) setThreshold(value / 100);
          }}
        />
        <span className="muted">%</span>
      </label>
    </span>
  );
}
