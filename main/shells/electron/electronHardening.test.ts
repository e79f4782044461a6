import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../util/packageRoot.js';

const builderConfig = fs.readFileSync(path.join(packageRoot(), 'electron-builder.yml'), 'utf8');

describe('the packaged Electron app', () => {
  it('flips the fuses: no RunAsNode, no NODE_OPTIONS, no --inspect, asar integrity checked', () => {
    const fuses = /^electronFuses:\n((?: {2}.+\n)+)/m.exec(builderConfig)?.[1] ?? '';
    expect(fuses).toMatch(/^ {2}runAsNode: false$/m);
    expect(fuses).toMatch(/^ {2}enableNodeOptionsEnvironmentVariable: false$/m);
    expect(fuses).toMatch(/^ {2}enableNodeCliInspectArguments: false$/m);
    expect(fuses).toMatch(/^ {2}enableEmbeddedAsarIntegrityValidation: true$/m);
    expect(fuses).toMatch(/^ {2}onlyLoadAppFromAsar: true$/m);
    expect(builderConfig).toMatch(/^asar: true$/m);
  });
});
