/**
 * The shell of the UI: top bar, reading progress, and either the welcome view (no project) or the review workspace.
 * Views are a union so the curation view (issue 5) slots in next to review without reshaping anything.
 */
import { useState } from 'react';
import { useClient } from '../state/contractContext.js';
import { useAppInfo } from '../state/useAppInfo.js';
import { useJobs } from '../state/useJobs.js';
import { FatalScreen } from './FatalScreen.js';
import { JobProgressBar } from './JobProgressBar.js';
import { ReviewWorkspace } from './ReviewWorkspace.js';
import { TopBar, type View } from './TopBar.js';
import { WelcomeView } from './WelcomeView.js';

export function App() {
  const { info, error, reload } = useAppInfo();
  const client = useClient();
  const jobs = useJobs();
  // Pages already read stay read; the rest go back to waiting and can be read later with "Read again".
  const cancelJobs = (jobIds: string[]) => {
    for (const jobId of jobIds) void client.call('jobs.cancel', { jobId }).catch(() => undefined);
  };
  const [view, setView] = useState<View>('review');
  const [choosingProject, setChoosingProject] = useState(false);

  if (!info) {
    if (error) return <FatalScreen title="Recto is not responding" message={error} onRetry={() => void reload()} />;
    return <div className="app-loading">Starting Recto…</div>;
  }

  const project = info.project;
  const showWelcome = !project || choosingProject;
  return (
    <div className="app">
      <TopBar
        projectName={project?.name ?? null}
        projectPath={project?.path ?? null}
        view={view}
        onView={setView}
        onChooseProject={() => setChoosingProject(true)}
        showViews={!showWelcome}
      />
      <JobProgressBar jobs={jobs} onCancel={cancelJobs} />
      {showWelcome ? (
        <WelcomeView
          info={info}
          onOpened={() => {
            setChoosingProject(false);
            void reload();
          }}
          onCancel={project ? () => setChoosingProject(false) : undefined}
        />
      ) : (
        <ReviewWorkspace
          key={project.path}
          nativeDialogs={info.nativeDialogs}
          readingActive={jobs.some((job) => job.state === 'running')}
        />
      )}
    </div>
  );
}
