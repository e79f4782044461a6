/**
 * The shortcut sheet (`?`): the review keymap (logic/keymap.ts) printed, the same entries the key listeners bind, so
 * a shortcut cannot be bound and missing here. Escape or the button closes it.
 */
import { useEffect, useRef } from 'react';
import { chordsLabel, reviewKeymap } from '../../logic/keymap.js';
import { isMac } from '../../state/keyContext.js';

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
            {reviewKeymap.map((binding) => (
              <tr key={binding.command} data-command={binding.command}>
                <td>
                  <kbd>{chordsLabel(binding, isMac)}</kbd>
                </td>
                <td>{binding.does}</td>
                <td className="muted">{binding.alsoAs}</td>
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
