/** The title row: product, open project, the views, the project switcher, and the reading progress. */
import type { ReactNode } from 'react';

export type View = 'review' | 'invoices' | 'curation' | 'evaluate' | 'suppliers';

const views: { id: View; label: string }[] = [
  { id: 'review', label: 'Review' },
  { id: 'invoices', label: 'Invoices' },
  { id: 'curation', label: 'Curation' },
  { id: 'evaluate', label: 'Evaluate' },
  { id: 'suppliers', label: 'Suppliers' },
];

interface TopBarProps {
  projectName: string | null;
  projectPath: string | null;
  view: View;
  onView(view: View): void;
  onChooseProject(): void;
  showViews: boolean;
  /** The reading jobs' progress (JobProgressBar), shown inside the bar. */
  progress?: ReactNode;
}

export function TopBar({ projectName, projectPath, view, onView, onChooseProject, showViews, progress }: TopBarProps) {
  return (
    <header className="topbar">
      <div className="topbar-brand">
        <span className="topbar-logo" aria-hidden="true">
          R
        </span>
        Recto
      </div>
      {projectName && (
        <button className="topbar-project" title={projectPath ?? undefined} onClick={onChooseProject}>
          {projectName}
          <span className="topbar-project-caret" aria-hidden="true">
            ▾
          </span>
        </button>
      )}
      {showViews && (
        <nav className="topbar-views" aria-label="Views">
          {views.map((item) => (
            <button
              key={item.id}
              className={item.id === view ? 'topbar-view active' : 'topbar-view'}
              aria-current={item.id === view ? 'page' : undefined}
              data-testid={`nav-${item.id}`}
              onClick={() => onView(item.id)}
            >
              {item.label}
            </button>
          ))}
        </nav>
      )}
      {/* In the bar, not below it: a reading that starts or ends does not move the workspace. */}
      <div className="topbar-progress">{progress}</div>
    </header>
  );
}
