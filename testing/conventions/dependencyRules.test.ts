/**
 * The conventions of .dependency-cruiser.cjs fire: each rule is shown a planted violation (a file written for the
 * test into the folder the rule guards, removed after) and must report it, while a planted file that keeps the
 * convention must pass. A rule that matches nothing any more (a renamed folder, a mistyped pattern) fails here.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../testdataPaths.js';

const PLANT = '__planted__';

interface Plant {
  /** Folder the file goes into (a `__planted__` folder is made under it). */
  dir: string;
  name: string;
  source: string;
  /** The rule expected to fire; null for a file that keeps the conventions. */
  rule: string | null;
}

const plants: Plant[] = [
  { dir: 'main', name: 'onnx.ts', source: "import * as ort from 'onnxruntime-node';\nexport const planted = ort;\n", rule: 'onnxruntime-only-in-the-vlm-runtime' },
  { dir: 'native-models/vlm/runtime', name: 'onnxOk.ts', source: "import * as ort from 'onnxruntime-node';\nexport const planted = ort;\n", rule: null },
  {
    dir: 'main',
    name: 'deepEngine.ts',
    source: "import { floatTensor } from '../../native-models/vlm/runtime/onnxRuntime.js';\nexport const planted = floatTensor;\n",
    rule: 'main-reaches-native-models-through-index',
  },
  { dir: 'main', name: 'engineIndex.ts', source: "import * as vlm from '../../native-models/vlm/index.js';\nexport const planted = vlm;\n", rule: null },
  {
    dir: 'native-models/bundled',
    name: 'crossFamily.ts',
    source: "import * as remote from '../../remote/index.js';\nexport const planted = remote;\n",
    rule: 'engine-families-apart',
  },
  { dir: 'native-models/bundled', name: 'ownFamily.ts', source: "import * as deskew from '../deskew.js';\nexport const planted = deskew;\n", rule: null },
  {
    dir: 'renderer/src/state',
    name: 'bridge.ts',
    source: "import type { RectoBridge } from '../../rectoBridge.js';\nexport type Planted = RectoBridge;\n",
    rule: 'renderer-bridge-only-in-transport',
  },
  {
    dir: 'renderer/src/transport',
    name: 'bridgeOk.ts',
    source: "import type { RectoBridge } from '../../rectoBridge.js';\nexport type Planted = RectoBridge;\n",
    rule: null,
  },
  { dir: 'renderer/src/logic', name: 'hook.ts', source: "import { useState } from 'react';\nexport const planted = useState;\n", rule: 'renderer-logic-without-react' },
  {
    dir: 'renderer/src/components',
    name: 'useCounter.ts',
    source: "import { useState } from 'react';\nexport const useCounter = () => useState(0);\n",
    rule: 'renderer-hooks-in-state',
  },
  {
    dir: 'renderer/src/components',
    name: 'useCounterBadge.tsx',
    source: "import { useState } from 'react';\nexport function useCounterBadge() {\n  const [count] = useState(0);\n  return <span>{count}</span>;\n}\n",
    rule: null,
  },
  { dir: 'renderer/src/state', name: 'useCounter.ts', source: "import { useState } from 'react';\nexport const useCounter = () => useState(0);\n", rule: null },
  {
    dir: 'renderer/src/state',
    name: 'usesComponent.ts',
    source: "import type { EditorTab } from '../../components/EditorPane.js';\nexport type Planted = EditorTab;\n",
    rule: 'renderer-state-below-components',
  },
];

const plantPath = (plant: Plant): string => path.join(plant.dir, PLANT, plant.name);
const plantDirs = [...new Set(plants.map((p) => path.join(repoRoot, p.dir, PLANT)))];

interface Violation {
  from: string;
  rule: { name: string };
}

let violations: Violation[] = [];

beforeAll(() => {
  for (const plant of plants) {
    mkdirSync(path.join(repoRoot, plant.dir, PLANT), { recursive: true });
    writeFileSync(path.join(repoRoot, plantPath(plant)), plant.source);
  }
  let out: string;
  try {
    out = execFileSync(
      process.execPath,
      [path.join(repoRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), '--config', '.dependency-cruiser.cjs', '--output-type', 'json', '--max-depth', '1', ...plants.map(plantPath)],
      { cwd: repoRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
  } catch (error) {
    // depcruise exits non-zero when it finds violations (as it must here); its JSON report is on stdout all the same.
    out = (error as { stdout?: string }).stdout ?? '';
  }
  violations = (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}, 120_000);

afterAll(() => {
  for (const dir of plantDirs) rmSync(dir, { recursive: true, force: true });
});

describe('dependency-cruiser conventions', () => {
  it.each(plants.map((p) => [plantPath(p), p.rule] as const))('%s → %s', (file, rule) => {
    const fired = violations.filter((v) => v.from === file).map((v) => v.rule.name);
    expect(fired).toEqual(rule ? [rule] : []);
  });
});
