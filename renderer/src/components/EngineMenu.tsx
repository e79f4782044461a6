/**
 * Which engine reads new imports, with its licence (the weights' licence must be visible wherever the engine is
 * chosen), and a way to read the current page again with it.
 */
import { useEngines } from '../state/useEngines.js';

interface EngineMenuProps {
  pageId: string | null;
  onReread(engine: string): void;
}

export function EngineMenu({ pageId, onReread }: EngineMenuProps) {
  const { engines, selected, choose } = useEngines();
  if (engines.length === 0 || selected === null) return null;
  const current = engines.find((engine) => engine.id === selected);
  return (
    <span className="engine-menu">
      <label className="review-status" title={current?.licence ? `Licence of the weights: ${current.licence}` : undefined}>
        <span className="muted">Engine</span>
        <select value={selected} data-testid="engine-select" onChange={(event) => void choose(event.target.value)}>
          {engines.map((engine) => (
            <option key={engine.id} value={engine.id} disabled={!engine.available} title={engine.unavailableReason}>
              {engine.name}
              {engine.licence ? ` — ${engine.licence}` : ''}
              {engine.available ? '' : ' (unavailable)'}
            </option>
          ))}
        </select>
      </label>
      {pageId && (
        <button className="button subtle" data-testid="reread-page" onClick={() => onReread(selected)}>
          Read again
        </button>
      )}
    </span>
  );
}
