/**
 * Only renderer/src/transport/ talks to the main side. Imports of the preload bridge's type are a dependency-cruiser
 * rule (renderer-bridge-only-in-transport); the globals that no import shows — fetch, WebSocket, EventSource,
 * XMLHttpRequest, window.rectoBridge — are found here in the renderer's source, and a planted use must be found too.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../testdataPaths.js';

/** A call or construction of a network global, or the preload bridge on window (`.prefetch(` and `x.fetch(` are not). */
const networkGlobal = /(?<![\w.$])(?:fetch\s*\(|new\s+(?:WebSocket|EventSource|XMLHttpRequest)\b)|\bwindow\s*\.\s*rectoBridge\b|\bglobalThis\s*\.\s*(?:fetch|rectoBridge)\b/;
/** Where it may appear: the transport, and the declaration of the bridge's global. */
const allowed = [/^transport\//, /^global\.d\.ts$/];

/** `src`-relative paths and lines of source files (tests aside) outside the transport that use a network global. */
function networkUses(src: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry)) {
        const rel = path.relative(src, full).split(path.sep).join('/');
        if (allowed.some((pattern) => pattern.test(rel))) continue;
        readFileSync(full, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            // Comments may name what they do not use (a doc comment's "`window.rectoBridge`").
            const code = /^\s*(?:\/\*|\*)/.test(line) ? '' : line.replace(/\/\/.*$/, '');
            if (networkGlobal.test(code)) found.push(`${rel}:${i + 1}`);
          });
      }
    }
  };
  walk(src);
  return found;
}

describe('renderer: network and bridge only in transport/', () => {
  it('holds for renderer/src', () => {
    expect(networkUses(path.join(repoRoot, 'renderer/src'))).toEqual([]);
  });

  it('finds a planted use outside transport/ and none inside', () => {
    const src = mkdtempSync(path.join(os.tmpdir(), 'recto-transport-'));
    try {
      mkdirSync(path.join(src, 'state'));
      mkdirSync(path.join(src, 'transport'));
      writeFileSync(path.join(src, 'state/useThing.ts'), "const cache = { prefetch() {} };\ncache.prefetch();\nexport const load = () => fetch('/x');\n");
      writeFileSync(path.join(src, 'state/socket.ts'), 'export const open = () => new WebSocket("ws://x");\n');
      writeFileSync(path.join(src, 'state/bridge.ts'), 'export const bridge = () => window.rectoBridge;\n');
      writeFileSync(path.join(src, 'transport/http.ts'), "export const load = () => fetch('/x');\n");
      expect(networkUses(src).sort()).toEqual(['state/bridge.ts:1', 'state/socket.ts:1', 'state/useThing.ts:3']);
    } finally {
      rmSync(src, { recursive: true, force: true });
    }
  });
});
