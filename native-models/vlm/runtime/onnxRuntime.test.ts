import { describe, expect, it } from 'vitest';
import { providerCandidates, supportedProviders } from './onnxRuntime.js';

describe('execution provider choice', () => {
  it('lists what the installed onnxruntime-node offers, CPU always', () => {
    expect(supportedProviders().map((p) => p.name)).toContain('cpu');
  });
  it('auto tries bundled GPU providers (not WebGPU) before CPU', () => {
    const linux = [
      { name: 'cpu', bundled: true },
      { name: 'webgpu', bundled: true },
      { name: 'cuda', bundled: false },
    ];
    expect(providerCandidates('auto', linux)).toEqual(['cpu']);
    const windows = [
      { name: 'cpu', bundled: true },
      { name: 'dml', bundled: true },
      { name: 'webgpu', bundled: true },
    ];
    expect(providerCandidates('auto', windows)).toEqual(['dml', 'cpu']);
  });
  it('an explicit provider is tried first, then CPU', () => {
    expect(providerCandidates('webgpu', [])).toEqual(['webgpu', 'cpu']);
    expect(providerCandidates('cpu', [])).toEqual(['cpu']);
  });
});
