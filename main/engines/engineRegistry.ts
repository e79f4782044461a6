/**
 * The engines this installation can run, created lazily (a VLM engine loads gigabytes; the bundled engine starts
 * OCR workers) and kept for reuse until the registry is disposed.
 */
import type { Engine, EngineDescriptor } from '../../app/model/engine.js';
import { CodedError, errorCodes } from '../../app/contract/wire.js';

export interface EngineFactory {
  descriptor(): EngineDescriptor;
  create(): Promise<Engine>;
}

export class UnknownEngineError extends CodedError {
  override name = 'UnknownEngineError';
  constructor(message: string) {
    super(errorCodes.badInput, message);
  }
}

export class EngineRegistry {
  private readonly instances = new Map<string, Promise<Engine>>();

  constructor(private readonly factories: ReadonlyMap<string, EngineFactory>) {}

  list(): EngineDescriptor[] {
    return [...this.factories.values()].map((factory) => factory.descriptor());
  }

  has(id: string): boolean {
    return this.factories.has(id);
  }

  get(id: string): Promise<Engine> {
    const factory = this.factories.get(id);
    if (!factory) {
      return Promise.reject(new UnknownEngineError(`No engine "${id}"; available: ${[...this.factories.keys()].join(', ')}`));
    }
    const descriptor = factory.descriptor();
    if (!descriptor.available) {
      return Promise.reject(new UnknownEngineError(`${descriptor.name} cannot run here: ${descriptor.unavailableReason}`));
    }
    let instance = this.instances.get(id);
    if (!instance) {
      instance = factory.create();
      // A failed start must not stick: the next request tries again.
      instance.catch(() => this.instances.delete(id));
      this.instances.set(id, instance);
    }
    return instance;
  }

  async dispose(): Promise<void> {
    const engines = [...this.instances.values()];
    this.instances.clear();
    await Promise.allSettled(engines.map(async (engine) => (await engine).dispose()));
  }
}
