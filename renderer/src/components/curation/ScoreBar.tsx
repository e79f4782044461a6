/** A score in [0, 1] as a small inline bar with its number; "–" where the check does not apply. */
import { formatScore } from '../../logic/charts/scale.js';
import { scoreBand } from '../../logic/curation/checkColumns.js';

export function ScoreBar({ score, label, wide = false }: { score: number | null; label: string; wide?: boolean }) {
  const band = scoreBand(score);
  return (
    <span className={wide ? 'score-bar wide' : 'score-bar'} title={`${label}: ${formatScore(score)}`}>
      <span className="score-bar-track" aria-hidden="true">
        {score !== null && <span className={`score-bar-fill band-${band}`} style={{ width: `${Math.round(Math.min(1, Math.max(0, score)) * 100)}%` }} />}
      </span>
      <span className={`score-bar-value band-${band}`}>{formatScore(score)}</span>
    </span>
  );
}
