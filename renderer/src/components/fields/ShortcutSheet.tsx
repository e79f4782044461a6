/** The list of review shortcuts (shortcuts.ts) in a dialog; Escape or the button closes it. */
import { useEffect, useRef } from 'react';
import { reviewShortcuts } from './shortcuts.js';

export function ShortcutSheet({ onClose }: { onClose(): void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <div className="dialog-backdrop" role="presentation" onClick={onClose}>
      <div
        className="dialog shortcut-sheet"
        role="dialog"
        aria-modal="true"
        aria-label="Keyboard shortcuts"
        data-testid="shortcut-sheet"
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose();
        }}
      >
        <h2>Keyboard shortcuts</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Keys</th>
              <th scope="col">Does</th>
              <th scope="col">Also as</th>
            </tr>
          </thead>
          <tbody>
            {reviewShortcuts.map((shortcut) => (
              <tr key={shortcut.keys}>
                <td>
                  <kbd>{shortcut.keys}</kbd>
                </td>
                <td>{shortcut.does}</td>
                <td className="muted">{shortcut.button}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button ref={close} className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
