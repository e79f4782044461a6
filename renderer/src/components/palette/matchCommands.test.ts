import { describe, expect, it } from 'vitest';
import { matchCommands, type Command } from './CommandPalette.js';

const command = (title: string, shortcut?: string): Command => ({ id: title, title, shortcut, run: () => undefined });

describe('matchCommands', () => {
  const commands = [command('Approve page'), command('Next low-confidence word', 'F8'), command('Save now', 'Ctrl+S')];
  it('keeps the commands whose title or shortcut holds every word of the query', () => {
    expect(matchCommands(commands, 'approve').map((c) => c.title)).toEqual(['Approve page']);
    expect(matchCommands(commands, 'f8').map((c) => c.title)).toEqual(['Next low-confidence word']);
    expect(matchCommands(commands, 'word next').map((c) => c.title)).toEqual(['Next low-confidence word']);
    expect(matchCommands(commands, '')).toHaveLength(3);
    expect(matchCommands(commands, 'approve save')).toHaveLength(0);
  });
});
