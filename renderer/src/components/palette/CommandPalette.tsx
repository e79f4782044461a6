/**
 * The command palette (Ctrl/Cmd+Shift+P): every action of the review screen with its shortcut, filtered as you type
 * (every word of the query must appear), ↑ ↓ to choose, Enter to run, Escape to close.
 */
import { useEffect, useMemo, useRef, useState } from 'react';

export interface Command {
  id: string;
  title: string;
  /** As shown to the user ("Ctrl+S", "F8"); absent where the action has no key. */
  shortcut?: string;
  /** False greys the command out (e.g. "Approve page" with no page). */
  enabled?: boolean;
  run(): void;
}

export function matchCommands(commands: readonly Command[], query: string): Command[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return commands.filter((command) => {
    const haystack = `${command.title} ${command.shortcut ?? ''}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

interface CommandPaletteProps {
  commands: readonly Command[];
  onClose(): void;
}

export function CommandPalette({ commands, onClose }: CommandPaletteProps) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const matches = useMemo(() => matchCommands(commands, query), [commands, query]);
  useEffect(() => input.current?.focus(), []);
  useEffect(() => setActive(0), [query]);
  // The pointer resting over the list can choose a row (onMouseEnter) that a narrower query no longer shows: Enter
  // runs the last row shown then, never nothing.
  const chosen = Math.min(active, matches.length - 1);

  const run = (command: Command | undefined) => {
    if (!command || command.enabled === false) return;
    onClose();
    // After the palette has closed and given the focus back, so the command acts on the screen, not on the palette.
    setTimeout(() => command.run(), 0);
  };

  return (
    <div className="palette-backdrop" onMouseDown={onClose}>
      <div className="palette" role="dialog" aria-label="Command palette" data-testid="command-palette" onMouseDown={(event) => event.stopPropagation()}>
        <input
          ref={input}
          className="palette-input"
          placeholder="Type a command…"
          value={query}
          data-testid="palette-input"
          aria-controls="palette-list"
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') setActive(Math.min(matches.length - 1, chosen + 1));
            else if (event.key === 'ArrowUp') setActive(Math.max(0, chosen - 1));
            else if (event.key === 'Enter') run(matches[chosen]);
            else if (event.key === 'Escape') onClose();
            else return;
            event.preventDefault();
            event.stopPropagation();
          }}
        />
        <ul className="palette-list" id="palette-list" role="listbox">
          {matches.length === 0 && <li className="palette-empty muted">No command matches.</li>}
          {matches.map((command, index) => (
            <li
              key={command.id}
              role="option"
              aria-selected={index === chosen}
              aria-disabled={command.enabled === false}
              className={['palette-item', index === chosen ? 'active' : '', command.enabled === false ? 'disabled' : ''].join(' ')}
              data-testid="palette-item"
              onMouseEnter={() => setActive(index)}
              onClick={() => run(command)}
            >
              <span>{command.title}</span>
              {command.shortcut && <kbd>{command.shortcut}</kbd>}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
