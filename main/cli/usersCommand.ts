/**
 * `recto users add|list|remove|reset|four-eyes … --project P.recto`: the accounts of a project served in team mode
 * (`recto serve --team`, docs/team-mode.md). `add` and `reset` print the person's personal token once, alone on a
 * line of stdout (only its hash is kept: lost, it can only be replaced); everything else goes to stderr. Whoever runs
 * this holds the project file, so the command acts as an admin; each change is an account event in the audit trail,
 * by "command line" and the OS account. Exit 0 done, 1 refused (the reason named), 2 bad usage or no project.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { accountRoles, type AccountRole } from '../../app/contract/team.js';
import { CodedError } from '../../app/contract/wire.js';
import { ProjectFileError, ProjectStore } from '../store/projectStore.js';

type Out = Pick<NodeJS.WritableStream, 'write'>;

export const usersUsage = `  recto users add NAME --role reviewer|approver|admin --project P.recto
  recto users list|remove NAME|reset NAME --project P.recto
  recto users four-eyes on|off --project P.recto
      The accounts of a project served with \`recto serve --team\`. add and reset print the person's token once, on
      a line of its own (only a hash is kept). The first account is an admin. A removed account's token opens nothing
      from then on, and its name is never given to another account. four-eyes: whether an approver may approve an
      invoice whose amounts or payment fields they corrected last (on by default).`;

/** The author of a change made here: the command line (the OS account is recorded beside it). */
const BY_COMMAND_LINE = { name: 'command line' };

export async function usersCommand(args: string[], stdout: Out, stderr: Out): Promise<number> {
  const usage = (message: string) => {
    stderr.write(`recto users: ${message}\n\n${usersUsage}\n`);
    return 2;
  };
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { project: { type: 'string' }, role: { type: 'string' } } });
  } catch (error) {
    return usage((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [sub, ...names] = positionals;
  if (!values.project) return usage('--project P.recto is required');
  const wantsName = sub === 'add' || sub === 'remove' || sub === 'reset' || sub === 'four-eyes';
  if (sub !== 'list' && !wantsName) return usage(`unknown subcommand "${sub ?? ''}"`);
  if (wantsName && names.length !== 1) return usage(`${sub}: give ${sub === 'four-eyes' ? 'on or off' : 'one NAME'}`);
  if (sub === 'list' && names.length > 0) return usage('list takes no name');
  if (sub === 'add' && !accountRoles.includes(values.role as AccountRole)) return usage(`add: --role reviewer, approver or admin${values.role ? `, not ${values.role}` : ''}`);
  if (sub !== 'add' && values.role) return usage('--role goes with add only');
  if (sub === 'four-eyes' && names[0] !== 'on' && names[0] !== 'off') return usage(`four-eyes: on or off, not ${names[0]}`);

  const file = values.project;
  let store: ProjectStore;
  try {
    // Accounts are made for a project that exists: a typo in the path must not create an empty project to serve.
    if (!fs.existsSync(file)) throw new ProjectFileError(file, "no such project file");
    store = await ProjectStore.openChecked(file);
  } catch (error) {
    stderr.write(`recto users: ${error instanceof ProjectFileError ? error.message : `${file}: ${(error as Error).message}`}\n`);
    return 2;
  }
  try {
    const accounts = store.accounts;
    switch (sub) {
      case 'add': {
        const { account, token } = accounts.add(names[0]!, values.role as AccountRole, BY_COMMAND_LINE);
        stderr.write(`recto users: added ${account.name} (${account.role})${account.role !== values.role ? ' — the first account is an admin' : ''}; their token (shown once, give it to them only):\n`);
        stdout.write(`${token}\n`);
        return 0;
      }
      case 'reset': {
        const { account, token } = accounts.reset(names[0]!, BY_COMMAND_LINE);
        stderr.write(`recto users: new token for ${account.name} (the old one opens nothing from now on), shown once:\n`);
        stdout.write(`${token}\n`);
        return 0;
      }
      case 'remove': {
        const account = accounts.remove(names[0]!, BY_COMMAND_LINE);
        stderr.write(`recto users: removed ${account.name}; their token opens nothing from now on (a running server refuses it at once)\n`);
        return 0;
      }
      case 'four-eyes': {
        accounts.setFourEyes(names[0] === 'on', BY_COMMAND_LINE);
        stderr.write(`recto users: four eyes ${names[0]} for ${file}\n`);
        return 0;
      }
      default: {
        const list = accounts.list();
        for (const a of list) stdout.write(`${a.name}\t${a.role}\t${a.removedAt ? `removed ${a.removedAt}` : `since ${a.createdAt}`}\n`);
        stderr.write(`recto users: ${list.filter((a) => !a.removedAt).length} account(s) in use; four eyes ${accounts.fourEyes() ? 'on' : 'off'}\n`);
        return 0;
      }
    }
  } catch (error) {
    if (!(error instanceof CodedError)) throw error;
    stderr.write(`recto users: ${file}: ${error.message}\n`);
    return 1;
  } finally {
    store.close();
  }
}
