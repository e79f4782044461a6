/**
 * Opens a model pack: validates manifest.json, checks every file against its SHA-256, creates the four sessions and
 * checks their tensor names against both the manifest and the contract. Any mismatch is a clear error naming the
 * file and the reason; a pack that fails is never half-used.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createSession, type ProviderPreference, type TimedSession } from '../runtime/onnxRuntime.js';
import { externalDataFiles } from './graphReferences.js';
import { MANIFEST_FILE, type PackManifest, packManifestSchema, sha256Bytes, sha256File } from './manifest.js';
import { deviceOutputNames, expectedTensorNames, type GraphRole, graphRoles, minimumCandidates } from './packContract.js';

export interface LoadedPack {
  dir: string;
  manifest: PackManifest;
  /** SHA-256 of manifest.json: identifies the pack in every extraction. */
  manifestSha256: string;
  sessions: Record<GraphRole, TimedSession>;
  tokenizerJson: object;
  /** The provider the decoder runs on (all graphs try the same preference). */
  provider: string;
  /** Messages about providers that failed to load and were replaced. */
  warnings: string[];
}

export class PackError extends Error {
  override readonly name = 'PackError';
}

/**
 * Reads and validates manifest.json and checks every listed file's size and SHA-256. No sessions are created.
 * Graphs are read whole and hashed from those bytes, which `graphBytes` returns for loading: onnxruntime gets exactly
 * what was checked, not a file that could have been swapped since. Every file a graph makes onnxruntime read (its
 * external weights) must be listed in the manifest — and so is hashed too — and sit in the pack folder itself.
 */
export async function verifyPackFiles(
  dir: string,
): Promise<{ manifest: PackManifest; manifestSha256: string; graphBytes: Map<GraphRole, Uint8Array> }> {
  const manifestPath = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestPath)) throw new PackError(`${manifestPath}: not found — is ${dir} a model pack folder?`);
  const raw = readFileSync(manifestPath);
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new PackError(`${manifestPath}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = packManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new PackError(`${manifestPath}: not a Recto model pack manifest (${issue.path.join('.') || 'root'}: ${issue.message})`);
  }
  const manifest = parsed.data;
  const needed = minimumCandidates(manifest.noRepeatNgram);
  if (manifest.candidates < needed) {
    throw new PackError(`${manifestPath}: candidates is ${manifest.candidates}, but the no-repeat rule (window ${manifest.noRepeatNgram.windowSize}, n ${manifest.noRepeatNgram.ngramSize}) can ban ${needed - 1} tokens: at least ${needed} are needed for an exact argmax`);
  }
  const draftVocabulary = manifest.draftVocabulary;
  if (draftVocabulary !== undefined && (draftVocabulary < manifest.candidates || draftVocabulary > manifest.dims.vocab)) {
    throw new PackError(`${manifestPath}: draftVocabulary is ${draftVocabulary}, but the draft head must score at least the ${manifest.candidates} candidates it returns per row and at most the vocabulary (${manifest.dims.vocab})`);
  }
  for (const role of [...graphRoles, 'tokenizer'] as const) {
    if (!manifest.files.some((f) => f.role === role)) throw new PackError(`${manifestPath}: lists no ${role} file`);
  }
  const graphBytes = new Map<GraphRole, Uint8Array>();
  // A role's graph is its first file (loadPack opens that one); further files of the role are its external data.
  const graphFiles = new Set(graphRoles.map((role) => manifest.files.find((f) => f.role === role)!));
  for (const file of manifest.files) {
    const path = join(dir, file.path);
    if (!existsSync(path)) throw new PackError(`${path}: missing (listed in manifest.json as the ${file.role} file)`);
    const size = statSync(path).size;
    if (size !== file.bytes) {
      throw new PackError(`${path}: refused — ${size} bytes where manifest.json says ${file.bytes}; the pack is damaged or was modified`);
    }
    const graph = graphFiles.has(file) ? readFileSync(path) : null;
    const actual = graph ? sha256Bytes(graph) : await sha256File(path);
    if (actual !== file.sha256) {
      throw new PackError(`${path}: refused — SHA-256 ${actual} does not match manifest.json (${file.sha256}); the pack is damaged or was modified`);
    }
    if (graph && isGraphRole(file.role)) graphBytes.set(file.role, graph);
  }
  for (const [role, bytes] of graphBytes) checkGraphReferences(dir, manifest, role, bytes);
  return { manifest, manifestSha256: sha256Bytes(raw), graphBytes };
}

const isGraphRole = (role: string): role is GraphRole => (graphRoles as readonly string[]).includes(role);

/** Every external data file of the graph is a plain name in the pack folder that manifest.json lists as data. */
function checkGraphReferences(dir: string, manifest: PackManifest, role: GraphRole, bytes: Uint8Array): void {
  const path = join(dir, manifest.files.find((f) => f.role === role)!.path);
  let referenced: string[];
  try {
    referenced = externalDataFiles(bytes);
  } catch (error) {
    throw new PackError(`${path}: refused — not a readable ONNX graph (${(error as Error).message})`);
  }
  for (const name of referenced) {
    const listed = manifest.files.find((f) => f.path === name && (f.role === 'data' || f.role === role));
    if (!listed) {
      throw new PackError(`${path}: refused — the graph reads its weights from "${name}", which manifest.json does not list as its data (so it would load unchecked)`);
    }
  }
}

export async function loadPack(dir: string, options: { provider: ProviderPreference; intraOpThreads?: number }): Promise<LoadedPack> {
  const { manifest, manifestSha256, graphBytes } = await verifyPackFiles(dir);
  const warnings: string[] = [];
  const sessions = {} as Record<GraphRole, TimedSession>;
  // After a provider fails once, the remaining graphs go straight to the one that worked: one message, not four.
  let provider: ProviderPreference = options.provider;
  try {
    for (const role of graphRoles) {
      const file = manifest.files.find((f) => f.role === role)!;
      const path = join(dir, file.path);
      // A graph without external weights loads from the very bytes that were hashed; one with them loads by path, so
      // that onnxruntime finds its data files beside it (those were hashed and are listed, see checkGraphReferences).
      const bytes = graphBytes.get(role)!;
      const source = externalDataFiles(bytes).length === 0 ? bytes : path;
      const session = await createSession(source, path, `${role} graph`, {
        provider,
        intraOpThreads: options.intraOpThreads,
        deviceOutputs: deviceOutputsOf(role, manifest),
        onFallback: (message) => warnings.push(message),
      });
      sessions[role] = session;
      provider = session.provider; // all graphs on the provider the first one got
      checkTensorNames(path, role, session, manifest);
    }
  } catch (error) {
    await Promise.all(Object.values(sessions).map((s) => s.release()));
    throw error;
  }
  const tokenizerPath = join(dir, manifest.files.find((f) => f.role === 'tokenizer')!.path);
  let tokenizerJson: object;
  try {
    tokenizerJson = JSON.parse(readFileSync(tokenizerPath, 'utf8')) as object;
  } catch (error) {
    throw new PackError(`${tokenizerPath}: not valid JSON (${(error as Error).message})`);
  }
  return { dir, manifest, manifestSha256, sessions, tokenizerJson, provider: sessions.decoder.provider, warnings };
}

/**
 * The outputs that feed a next run and can stay on a GPU: the hidden states the draft block reads, and the present
 * caches of a 'shared-buffer' pack. ('views' caches are written into host buffers at an offset, which a GPU tensor
 * cannot express from JS.)
 */
export function deviceOutputsOf(role: GraphRole, manifest: Pick<PackManifest, 'cacheForm' | 'dims'>): string[] {
  return deviceOutputNames(role, manifest.dims.layers, manifest.cacheForm);
}

function checkTensorNames(path: string, role: GraphRole, session: TimedSession, manifest: PackManifest): void {
  const contract = expectedTensorNames(role, manifest.dims.layers, manifest.cacheForm);
  const declared = manifest.tensors[role];
  const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
  for (const [kind, actual, wanted, listed] of [
    ['inputs', session.inputNames, contract.inputs, declared.inputs],
    ['outputs', session.outputNames, contract.outputs, declared.outputs],
  ] as const) {
    if (!sameSet(listed, wanted)) {
      throw new PackError(`${path}: manifest.json lists ${role} ${kind} [${listed.join(', ')}], the pack contract needs [${wanted.join(', ')}]`);
    }
    if (!sameSet(actual, wanted)) {
      throw new PackError(`${path}: the graph's ${kind} are [${actual.join(', ')}], the pack contract needs [${wanted.join(', ')}]`);
    }
  }
}
