/**
 * Who a request acts for. The single-user app (the desktop window, `recto serve` without --team, the CLI) acts for
 * the person at the machine: the reviewer name in the settings, no role. Team mode (`recto serve --team`,
 * docs/team-mode.md) acts for the account whose personal token the request carried: its name is what every
 * revision, field revision, review event, export record and confirmation records, whatever the settings say.
 *
 * `actorOf` is the one answer to "who is doing this": handlers never read the reviewer from the settings.
 */
import type { AccountRole } from '../../app/contract/team.js';
import type { Account } from '../store/accounts.js';
import { osAccountName } from '../store/reviewEvents.js';
import type { RectoSession } from './rectoSession.js';

export interface RequestContext {
  /** The signed-in account (team mode); null for the single-user app. */
  account: Account | null;
}

/** The context of every request of the single-user app. */
export const singleUser: RequestContext = Object.freeze({ account: null });

export interface Actor {
  /** The name recorded as author or reviewer. */
  name: string;
  /** The account's role; null in the single-user app (no roles). */
  role: AccountRole | null;
  /** The operating-system account running Recto, recorded beside the name. */
  osAccount: string | null;
}

export function actorOf(session: RectoSession, context: RequestContext = singleUser): Actor {
  if (context.account) return { name: context.account.name, role: context.account.role, osAccount: osAccountName() };
  return { name: session.settings.get().authorName, role: null, osAccount: osAccountName() };
}
