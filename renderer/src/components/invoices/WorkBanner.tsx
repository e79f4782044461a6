/**
 * Working side by side, on the review screen: a line over the page when another person has claimed its invoice (a
 * warning before editing: two people correcting one invoice lose each other's work) or has it open, with Claim / Take
 * over / Release, and its assignee. Nothing shows while nobody is on it and it is nobody's.
 */
import { useState } from 'react';
import { useClient } from '../../state/contractContext.js';
import { useContractQuery } from '../../state/useContractQuery.js';

export function WorkBanner({ pageId }: { pageId: string }) {
  const client = useClient();
  const [failure, setFailure] = useState<string | null>(null);
  const { data: state, reload } = useContractQuery((c) => c.call('work.state', { pageId }), { refetchOn: ['work.changed', 'presence.changed'], throttleMs: 200 });
  if (!state) return null;
  const others = state.openBy.filter((person) => person !== state.me);
  const claimedByOther = state.claimedBy !== null && state.claimedBy !== state.me;
  const act = (call: Promise<unknown>) =>
    void call.then(
      () => (setFailure(null), reload()),
      (caught: unknown) => setFailure(caught instanceof Error ? caught.message : String(caught)),
    );
  // Nobody else is on it and nobody gave it to anyone: no line (the screen's height is the page's).
  if (!claimedByOther && others.length === 0 && state.claimedBy === null && state.assignee === null) return null;
  return (
    <div className={claimedByOther || others.length > 0 ? 'work-banner' : 'work-banner quiet'} role={claimedByOther ? 'alert' : undefined} data-testid="work-banner">
      {claimedByOther && (
        <span data-testid="work-claimed-by">
          {state.claimedBy} is working on this invoice (claimed {state.claimedAt ? new Date(state.claimedAt).toLocaleString() : ''}): your edits may cross theirs.
        </span>
      )}
      {state.claimedBy === state.me && <span>You have claimed this invoice.</span>}
      {state.assignee && <span>Assigned to {state.assignee === state.me ? 'you' : state.assignee}.</span>}
      {others.length > 0 && <span data-testid="work-open-by">Also open: {others.join(', ')}.</span>}
      {claimedByOther ? (
        <button className="link-button" onClick={() => act(client.call('work.claim', { documentId: state.documentId, force: true }))} data-testid="work-take-over">
          Take over
        </button>
      ) : state.claimedBy === state.me ? (
        <button className="link-button" onClick={() => act(client.call('work.release', { documentId: state.documentId }))}>
          Release
        </button>
      ) : (
        <button className="link-button" onClick={() => act(client.call('work.claim', { documentId: state.documentId }))} data-testid="work-claim">
          Claim it
        </button>
      )}
      {failure && <span className="error">{failure}</span>}
    </div>
  );
}
