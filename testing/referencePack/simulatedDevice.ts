/**
 * A stand-in for a GPU provider, for tests on machines without one: real onnxruntime CPU sessions that answer as
 * onnxruntime-node does on WebGPU. Outputs a session marks as device outputs (`preferredOutputLocation:
 * 'gpu-buffer'`) come back as device tensors — `location` 'gpu-buffer', no host data — whose contents the simulator
 * keeps to itself; feeding one back as an input, or binding it as a pre-allocated output, works as on the device;
 * feeding a disposed one fails. So the decoding loops run with real numerics while the test can see what crossed to
 * the host, which tensors were fed from the device, and which device tensors were never freed.
 */
import * as ort from 'onnxruntime-node';
import { TimedSession } from '../../native-models/vlm/runtime/onnxRuntime.js';

export interface SimulatedRun {
  label: string;
  /** Where each input came from: 'cpu' (uploaded by this run) or 'gpu-buffer' (already on the device). */
  inputs: Record<string, string>;
  /** The outputs returned to the host, by name. */
  toHost: string[];
}

export class SimulatedDevice {
  /** Device tensor → the host tensor holding its contents (never visible to the code under test). */
  private readonly contents = new Map<ort.Tensor, ort.Tensor>();
  readonly runs: SimulatedRun[] = [];

  /** Device tensors allocated and not yet disposed. */
  get live(): number {
    return this.contents.size;
  }

  /** A session with the 'webgpu' provider over `real` (a CPU session of the same graph). */
  session(real: ort.InferenceSession, label: string, deviceOutputs: readonly string[]): TimedSession {
    const onDevice = new Set(deviceOutputs);
    const fake = {
      inputNames: real.inputNames,
      outputNames: real.outputNames,
      run: async (feeds: Record<string, ort.Tensor>, fetches?: Record<string, ort.Tensor | null>) => {
        const run: SimulatedRun = { label, inputs: {}, toHost: [] };
        const hostFeeds: Record<string, ort.Tensor> = {};
        for (const [name, tensor] of Object.entries(feeds)) {
          run.inputs[name] = tensor.location;
          hostFeeds[name] = tensor.location === 'cpu' ? tensor : this.hostOf(tensor, `${label}: input ${name}`);
        }
        const names = fetches ? Object.keys(fetches) : real.outputNames;
        const hostFetches: Record<string, ort.Tensor | null> = {};
        for (const name of names) {
          const bound = fetches?.[name] ?? null;
          hostFetches[name] = bound && bound.location !== 'cpu' ? this.hostOf(bound, `${label}: output ${name}`) : bound;
        }
        const out = await real.run(hostFeeds, hostFetches);
        const result: Record<string, ort.Tensor> = {};
        for (const name of names) {
          const bound = fetches?.[name] ?? null;
          if (bound && bound.location !== 'cpu') {
            // Bound device buffer: written in place (the host copy is refreshed from what the run produced).
            (this.hostOf(bound, name).data as Float32Array).set(out[name]!.data as Float32Array);
            result[name] = bound;
          } else if (onDevice.has(name) && !bound) {
            result[name] = this.allocate(out[name]!);
          } else {
            result[name] = out[name]!;
            run.toHost.push(name);
          }
        }
        this.runs.push(run);
        return result;
      },
    };
    return new TimedSession(fake as unknown as ort.InferenceSession, 'webgpu', label);
  }

  private allocate(host: ort.Tensor): ort.Tensor {
    const tensor: ort.Tensor = ort.Tensor.fromGpuBuffer({} as never, {
      dataType: host.type as 'float32',
      dims: host.dims,
      dispose: () => void this.contents.delete(tensor),
    });
    this.contents.set(tensor, host);
    return tensor;
  }

  private hostOf(tensor: ort.Tensor, what: string): ort.Tensor {
    const host = this.contents.get(tensor);
    if (!host) throw new Error(`${what}: a device tensor that was disposed or never allocated here`);
    return host;
  }
}
