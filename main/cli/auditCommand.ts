/**
 * `recto audit P.recto`: verifies the project's audit trail, the hash chain over revisions, field revisions and
 * review events (main/store/auditChain.ts, docs/security.md). Prints where the chain starts (a project made before
 * the chain has rows it does not cover, counted per table) and either "intact" or the first broken row: its table,
 * its id, what kind of break, and what the row claims now.
 *
 * Exit 0: intact; 1: tampered; 2: the file cannot be read as a Recto project.
 */
import { parseArgs } from 'node:util';
import { ProjectFileError, ProjectStore } from '../store/projectStore.js';
import type { ChainBreak, ChainReport } from '../store/auditChain.js';

export const auditUsage = `  recto audit P.recto
      Verifies the project's audit trail (revisions, field revisions and review events, hash-chained): prints where
      the chain starts and "intact", or the first row edited, removed or added outside Recto and what it claims.
      Exit 0: intact; 1: tampered; 2: the file cannot be read.`;

type Out = Pick<NodeJS.WriteStream, 'write'>;

const breakWords: Record<ChainBreak['kind'], string> = {
  edited: 'edited outside Recto (its content is not what was chained)',
  removed: 'removed outside Recto',
  unchained: 'added outside Recto (the chain never saw it)',
  link: 'the chain itself was edited (this entry does not follow from the one before)',
};

export function describeChain(file: string, report: ChainReport): string[] {
  const lines = report.starts.map((s) =>
    s.rowsBefore > 0
      ? `${file}: ${s.table}: the chain starts at ${s.startedAt}; ${s.rowsBefore} row(s) from before it are counted but not chained`
      : `${file}: ${s.table}: chained from the first row (${s.startedAt})`,
  );
  if (report.intact) lines.push(`${file}: audit trail intact (${report.entries} chained row(s))`);
  else {
    const b = report.firstBreak!;
    lines.push(`${file}: TAMPERED: ${b.table} row ${b.rowId}${b.seq !== null ? ` (chain entry ${b.seq})` : ''}: ${breakWords[b.kind]}`);
    if (b.claims) lines.push(`${file}: it claims: ${JSON.stringify(b.claims).slice(0, 2000)}`);
  }
  return lines;
}

export async function auditCommand(args: string[], stdout: Out, stderr: Out): Promise<number> {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args, allowPositionals: true, options: {} }));
  } catch (error) {
    stderr.write(`recto audit: ${(error as Error).message}\n${auditUsage}\n`);
    return 2;
  }
  if (positionals.length !== 1) {
    stderr.write(`recto audit: name one project file\n${auditUsage}\n`);
    return 2;
  }
  const file = positionals[0]!;
  let store: ProjectStore;
  try {
    store = await ProjectStore.openChecked(file);
  } catch (error) {
    stderr.write(`recto audit: ${error instanceof ProjectFileError ? error.message : `${file}: ${(error as Error).message}`}\n`);
    return 2;
  }
  try {
    const report = store.auditChain().verify();
    for (const line of describeChain(file, report)) (report.intact ? stdout : stderr).write(`${line}\n`);
    return report.intact ? 0 : 1;
  } catch (error) {
    stderr.write(`recto audit: ${file}: the audit trail cannot be read (${(error as Error).message})\n`);
    return 2;
  } finally {
    store.close();
  }
}
