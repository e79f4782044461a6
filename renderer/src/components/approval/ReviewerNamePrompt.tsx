/**
 * Asks once (a small form in the top bar's free corner: it neither blocks nor moves the review screen) for the name every correction, revision and status change is signed with. The OS account is only the
 * default offered; once confirmed (settings.reviewerConfirmed) the prompt does not come back — the name can still be
 * changed in the settings.
 */
import { useEffect, useState } from 'react';
import { useClient } from '../../state/contractContext.js';

export function ReviewerNamePrompt() {
  const client = useClient();
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    void client.call('settings.get', {}).then((settings) => setName(settings.reviewerConfirmed ? null : settings.authorName), () => setName(null));
  }, [client]);
  if (name === null) return null;
  const save = () => {
    const trimmed = name.trim();
    if (!trimmed) return;
    void client.call('settings.set', { authorName: trimmed, reviewerConfirmed: true }).finally(() => setName(null));
  };
  return (
    <form
      className="reviewer-name-bar"
      aria-label="Your name as reviewer"
      data-testid="reviewer-name-prompt"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <label>
        <span title="Kept with every correction, approval and export; the OS account is only the default">Who is reviewing?</span>
        <input className="text-input" value={name} maxLength={200} onChange={(event) => setName(event.target.value)} data-testid="reviewer-name" />
      </label>
      <button type="submit" className="button primary" disabled={!name.trim()}>
        Save
      </button>
    </form>
  );
}
