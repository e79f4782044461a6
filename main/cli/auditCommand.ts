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
import { describeChain } from '../store/auditChain.js';

export const auditUsage = `  recto audit P.recto
      Verifies the project's audit trail (revisions, field revisions and review events, hash-chained): prints where
      the chain starts and "intact", or the first row edited, removed or added outside Recto and what it claims.
      Exit 0: intact; 1: tampered; 2: the file cannot be read.`;

type Out = Pick<NodeJS.WriteStream, 'write'>;

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
