/** The curation view's controls: sort, status chips, engine, element kind, document, corrected only, score range. */
import { useEffect, useState } from 'react';
import type { CurationSort } from '../../../../app/contract/curation.js';
import { elementKinds, type ElementKind } from '../../../../app/model/extraction.js';
import { reviewStatusSchema, type ReviewStatus } from '../../../../app/model/page.js';
import { parseScoreBound, sortOptions, withFilter, withScoreRange, withSort, type CurationQuery } from '../../logic/curation/curationQuery.js';

interface CurationFiltersProps {
  query: CurationQuery;
  onQuery(query: CurationQuery): void;
  engines: readonly string[];
  documents: readonly { id: string; name: string }[];
}

const statuses = reviewStatusSchema.options;

export function CurationFilters({ query, onQuery, engines, documents }: CurationFiltersProps) {
  const toggleStatus = (status: ReviewStatus) => {
    const next = query.statuses.includes(status) ? query.statuses.filter((s) => s !== status) : [...query.statuses, status];
    onQuery(withFilter(query, { statuses: next }));
  };
  return (
    <div className="curation-filters" data-testid="curation-filters">
      <label className="filter">
        <span className="filter-label">Sort by</span>
        <select
          data-testid="curation-sort"
          value={query.sort}
          onChange={(event) => onQuery(withSort(query, event.target.value as CurationSort))}
        >
          {sortOptions.map((option) => (
            <option key={option.key} value={option.key}>
              {option.label}
            </option>
          ))}
        </select>
        <button
          className="icon-button"
          data-testid="curation-direction"
          title={query.direction === 'asc' ? 'Lowest first (click for highest first)' : 'Highest first (click for lowest first)'}
          aria-label={query.direction === 'asc' ? 'Lowest first' : 'Highest first'}
          onClick={() => onQuery({ ...query, direction: query.direction === 'asc' ? 'desc' : 'asc', pageIndex: 0 })}
        >
          {query.direction === 'asc' ? '↑' : '↓'}
        </button>
      </label>
      <div className="filter" role="group" aria-label="Review status">
        <span className="filter-label">Status</span>
        {statuses.map((status) => (
          <button
            key={status}
            className={query.statuses.includes(status) ? `chip active ${status}` : 'chip'}
            aria-pressed={query.statuses.includes(status)}
            data-testid={`filter-status-${status}`}
            onClick={() => toggleStatus(status)}
          >
            {status}
          </button>
        ))}
      </div>
      <label className="filter">
        <span className="filter-label">Engine</span>
        <select data-testid="filter-engine" value={query.engine} onChange={(event) => onQuery(withFilter(query, { engine: event.target.value }))}>
          <option value="">All</option>
          {engines.map((engine) => (
            <option key={engine} value={engine}>
              {engine}
            </option>
          ))}
        </select>
      </label>
      <label className="filter">
        <span className="filter-label">Element</span>
        <select
          data-testid="filter-kind"
          value={query.elementKind}
          onChange={(event) => onQuery(withFilter(query, { elementKind: event.target.value as ElementKind | '' }))}
        >
          <option value="">All kinds</option>
          {elementKinds.map((kind) => (
            <option key={kind} value={kind}>
              {kind}
            </option>
          ))}
        </select>
      </label>
      {query.elementKind && (
        <label className="filter checkbox">
          <input
            type="checkbox"
            checked={query.kindChangedOnly}
            onChange={(event) => onQuery(withFilter(query, { kindChangedOnly: event.target.checked }))}
          />
          only where it was corrected
        </label>
      )}
      <label className="filter">
        <span className="filter-label">Document</span>
        <select
          data-testid="filter-document"
          className="filter-document"
          value={query.documentId}
          onChange={(event) => onQuery(withFilter(query, { documentId: event.target.value }))}
        >
          <option value="">All documents</option>
          {documents.map((document) => (
            <option key={document.id} value={document.id}>
              {document.name}
            </option>
          ))}
        </select>
      </label>
      <label className="filter checkbox">
        <input
          type="checkbox"
          data-testid="filter-corrected"
          checked={query.correctedOnly}
          onChange={(event) => onQuery(withFilter(query, { correctedOnly: event.target.checked }))}
        />
        Corrected only
      </label>
      <ScoreRangeFilter query={query} onQuery={onQuery} />
    </div>
  );
}

/**
 * Combined score from / to. The fields keep what is typed ("0.", "") and the query changes once a field holds a
 * score in [0, 1] or is empty (no bound); a range typed the wrong way round is put in order in the request.
 */
function ScoreRangeFilter({ query, onQuery }: Pick<CurationFiltersProps, 'query' | 'onQuery'>) {
  const shown = (value: number | null) => (value === null ? '' : String(value));
  const [min, setMin] = useState(shown(query.minScore));
  const [max, setMax] = useState(shown(query.maxScore));
  // Follow the query when it changes elsewhere (a reset).
  useEffect(() => setMin((typed) => (parseScoreBound(typed) === query.minScore ? typed : shown(query.minScore))), [query.minScore]);
  useEffect(() => setMax((typed) => (parseScoreBound(typed) === query.maxScore ? typed : shown(query.maxScore))), [query.maxScore]);
  const change = (which: 'min' | 'max', typed: string) => {
    (which === 'min' ? setMin : setMax)(typed);
    const bound = parseScoreBound(typed);
    if (bound === undefined) return;
    onQuery(which === 'min' ? withScoreRange(query, bound, query.maxScore) : withScoreRange(query, query.minScore, bound));
  };
  const field = (which: 'min' | 'max', value: string, label: string, placeholder: string) => (
    <input
      type="number"
      className="score-bound"
      data-testid={`filter-score-${which}`}
      aria-label={label}
      min={0}
      max={1}
      step={0.05}
      placeholder={placeholder}
      value={value}
      onChange={(event) => change(which, event.target.value)}
    />
  );
  return (
    <div className="filter" role="group" aria-label="Combined score range">
      <span className="filter-label">Score</span>
      {field('min', min, 'Lowest combined score', '0')}
      <span aria-hidden="true">–</span>
      {field('max', max, 'Highest combined score', '1')}
      {(query.minScore !== null || query.maxScore !== null) && (
        <button
          type="button"
          className="icon-button"
          data-testid="filter-score-clear"
          title="Any score"
          aria-label="Any score"
          onClick={() => {
            setMin('');
            setMax('');
            onQuery(withScoreRange(query, null, null));
          }}
        >
          ×
        </button>
      )}
    </div>
  );
}
