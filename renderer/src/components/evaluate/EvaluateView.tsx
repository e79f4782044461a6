/**
 * The Evaluate view: choose engines, a quality bar and a compute cost, and every corrected or approved page is read
 * again by each engine and scored against the analyst's text. Shows, per engine, the share of pages accepted, time
 * and cost per accepted page, each check's mean, and the worst pages (which open in the review screen).
 */
import { useEffect, useState } from 'react';
import type { EngineSummary } from '../../../../app/contract/evaluation.js';
import { useEngines } from '../../state/useEngines.js';
import { useEvaluation } from '../../state/useEvaluation.js';

interface EvaluateViewProps {
  onOpenPage(pageId: string): void;
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function EngineCard({ engine, onOpenPage }: { engine: EngineSummary; onOpenPage(pageId: string): void }) {
  return (
    <section className="evaluate-engine" data-testid={`evaluate-engine-${engine.engine}`}>
      <header>
        <h3>{engine.engineName}</h3>
        <span className="evaluate-muted">{engine.engineVersion}</span>
      </header>
      <div className="evaluate-figures">
        <div>
          <b data-testid="accepted-share">{percent(engine.accepted_share)}</b>
          <span>accepted ({engine.accepted} of {engine.pages})</span>
        </div>
        <div>
          <b>{engine.mean_score.toFixed(3)}</b>
          <span>mean score</span>
        </div>
        <div>
          <b>{engine.seconds_per_page.toFixed(2)} s</b>
          <span>per page</span>
        </div>
        <div>
          <b>{engine.cost_per_accepted_page === null ? '—' : engine.cost_per_accepted_page.toFixed(4)}</b>
          <span>per accepted page</span>
        </div>
      </div>
      <div className="evaluate-bar" role="img" aria-label={`${percent(engine.accepted_share)} accepted`}>
        <span style={{ width: percent(engine.accepted_share) }} />
      </div>
      <div className="evaluate-tables">
        <table>
          <caption>Mean of each check</caption>
          <tbody>
            {Object.entries(engine.terms).map(([term, value]) => (
              <tr key={term}>
                <td>{term}</td>
                <td className="num">{value.toFixed(3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table>
          <caption>Worst pages</caption>
          <tbody>
            {engine.worst.map((page) => (
              <tr key={page.pageId}>
                <td>
                  <button className="link" onClick={() => onOpenPage(page.pageId)} title="Open in the review screen">
                    {page.document} p. {page.page}
                  </button>
                </td>
                <td className="num">{page.score.toFixed(3)}</td>
                <td className="evaluate-muted">{page.why}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table>
          <caption>By element kind (share of its characters unchanged)</caption>
          <tbody>
            {engine.by_kind.map((kind) => (
              <tr key={kind.kind}>
                <td>{kind.kind}</td>
                <td className="num">{percent(kind.kept_share)}</td>
                <td className="evaluate-muted num">{kind.chars} chars</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {engine.failures.length > 0 && (
        <p className="evaluate-error">
          {engine.failures.length} page(s) failed: {engine.failures.slice(0, 3).map((f) => `${f.document} p. ${f.page}: ${f.error}`).join('; ')}
        </p>
      )}
    </section>
  );
}

export function EvaluateView({ onOpenPage }: EvaluateViewProps) {
  const { engines } = useEngines();
  const { result, running, progress, error, start, cancel } = useEvaluation();
  const available = engines.filter((engine) => engine.available);
  const [chosen, setChosen] = useState<string[]>([]);
  const [threshold, setThreshold] = useState('0.9');
  const [cost, setCost] = useState('');

  useEffect(() => {
    if (chosen.length === 0 && available.length > 0) setChosen([available[0]!.id]);
  }, [available, chosen.length]);

  const thresholdValue = Number(threshold);
  const costValue = cost.trim() === '' ? null : Number(cost);
  const valid = chosen.length > 0 && thresholdValue >= 0 && thresholdValue <= 1 && (costValue === null || costValue >= 0);

  return (
    <div className="evaluate" data-testid="evaluate-view">
      <form
        className="evaluate-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) void start({ engines: chosen, threshold: thresholdValue, costPerHour: costValue, limit: null });
        }}
      >
        <fieldset>
          <legend>Engines</legend>
          {available.map((engine) => (
            <label key={engine.id}>
              <input
                type="checkbox"
                checked={chosen.includes(engine.id)}
                onChange={(event) =>
                  setChosen((previous) => (event.target.checked ? [...previous, engine.id] : previous.filter((id) => id !== engine.id)))
                }
              />
              {engine.name}
            </label>
          ))}
        </fieldset>
        <label>
          Accept at score ≥
          <input type="number" min={0} max={1} step={0.01} value={threshold} onChange={(event) => setThreshold(event.target.value)} />
        </label>
        <label>
          Cost per hour
          <input type="number" min={0} step="any" placeholder="none" value={cost} onChange={(event) => setCost(event.target.value)} />
        </label>
        {running ? (
          <button type="button" className="button" onClick={cancel}>
            Cancel
          </button>
        ) : (
          <button type="submit" className="button primary" disabled={!valid} data-testid="evaluate-start">
            Evaluate
          </button>
        )}
      </form>
      <p className="evaluate-muted">
        Every corrected or approved page is read again by each engine and scored against the analyst's text with the
        curation checks. A cancelled evaluation resumes where it stopped.
      </p>
      {running && progress && (
        <div className="evaluate-progress" role="status">
          <progress max={Math.max(1, progress.pagesTotal)} value={progress.pagesDone} /> {progress.label}
        </div>
      )}
      {error && (
        <p className="evaluate-error" role="alert">
          {error}
        </p>
      )}
      {result ? (
        <>
          <p className="evaluate-muted" data-testid="evaluate-summary">
            {result.referencePages} reference page(s), accepted at {result.summary.threshold}, finished{' '}
            {new Date(result.finishedAt).toLocaleString()} ·{' '}
            {result.reportUrl ? (
              // Served by the shell (a file path is nothing a browser tab can open); the path says where it was written.
              <a href={result.reportUrl} target="_blank" rel="noopener noreferrer" data-testid="evaluate-report-link" title={result.reportPath}>
                Open the report
              </a>
            ) : (
              <>
                report: <code>{result.reportPath}</code>
              </>
            )}
          </p>
          <div className="evaluate-engines">
            {result.summary.engines.map((engine) => (
              <EngineCard key={engine.engine} engine={engine} onOpenPage={onOpenPage} />
            ))}
          </div>
        </>
      ) : (
        !running && <p className="evaluate-empty">No evaluation of this project yet.</p>
      )}
    </div>
  );
}
