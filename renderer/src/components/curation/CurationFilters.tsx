/** The curation view's controls: sort, status chips, engine, element kind, document, corrected only. */
import type { CurationSort } from '../../../../app/contract/curation.js';
import { elementKinds, type ElementKind } from '../../../../app/model/extraction.js';
import { reviewStatusSchema, type ReviewStatus } from '../../../../app/model/page.js';
import { sortOptions, withFilter, withSort, type CurationQuery } from '../../logic/curation/curationQuery.js';

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
    </div>
  );
}
