/**
 * The project's accounts (team mode, migration 013, docs/team-mode.md). A personal token is 32 random bytes; only its
 * SHA-256 is kept (a token that long cannot be guessed, so a slow password hash buys nothing), and a request is
 * matched by looking the hash of what it presents up — the lookup is by hash, so no comparison leaks the stored value
 * byte by byte. Every change is an account event, chained in the audit trail with who made it.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { CodedError, errorCodes } from '../../app/contract/wire.js';
import { accountRoles, type AccountRole } from '../../app/contract/team.js';
import { AuditChain } from './auditChain.js';
import { osAccountName } from './reviewEvents.js';

export interface Account {
  id: string;
  name: string;
  role: AccountRole;
  createdAt: string;
  /** Null while the account is in use. */
  removedAt: string | null;
}

interface Row {
  id: string;
  name: string;
  role: AccountRole;
  created_at: string;
  removed_at: string | null;
}

const fromRow = (row: Row): Account => ({ id: row.id, name: row.name, role: row.role, createdAt: row.created_at, removedAt: row.removed_at });

/** Printed with a prefix so that a pasted token is recognised as Recto's personal one (not the /v1 key). */
const TOKEN_PREFIX = 'recto-u-';

export const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

const newToken = () => `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;

/** A name as accounts take it: trimmed, printable, at most 100 characters, not the empty string. */
export function accountNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0) return 'a name is required';
  if (trimmed.length > 100) return 'a name has at most 100 characters';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return 'a name has no control characters';
  return null;
}

export class AccountError extends CodedError {
  override name = 'AccountError';
  constructor(message: string) {
    super(errorCodes.badInput, message);
  }
}

/** Who made an account change: the admin's account name (or the CLI), and the OS account. */
export interface ChangedBy {
  name: string;
}

export class AccountsRepository {
  private readonly statements;
  private readonly chain: AuditChain;

  constructor(private readonly db: Database.Database) {
    this.chain = new AuditChain(db);
    this.statements = {
      all: db.prepare('SELECT * FROM accounts ORDER BY created_at, rowid'),
      byName: db.prepare('SELECT * FROM accounts WHERE name = ?'),
      byToken: db.prepare('SELECT * FROM accounts WHERE token_hash = ? AND removed_at IS NULL'),
      byId: db.prepare('SELECT * FROM accounts WHERE id = ?'),
      active: db.prepare('SELECT COUNT(*) FROM accounts WHERE removed_at IS NULL').pluck(),
      activeAdmins: db.prepare("SELECT COUNT(*) FROM accounts WHERE removed_at IS NULL AND role = 'admin'").pluck(),
      insert: db.prepare('INSERT INTO accounts (id, name, role, token_hash, created_at) VALUES (?, ?, ?, ?, ?)'),
      remove: db.prepare('UPDATE accounts SET removed_at = ? WHERE id = ?'),
      reset: db.prepare('UPDATE accounts SET token_hash = ? WHERE id = ?'),
      event: db.prepare('INSERT INTO account_events (id, at, action, account, role, detail, by_name, os_account) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
      events: db.prepare('SELECT * FROM account_events ORDER BY rowid'),
      rule: db.prepare('SELECT value FROM team_rules WHERE rule = ?').pluck(),
      setRule: db.prepare('INSERT INTO team_rules (rule, value) VALUES (?, ?) ON CONFLICT(rule) DO UPDATE SET value = excluded.value'),
    };
  }

  /** Every account, removed ones included (their names stay taken), oldest first. */
  list(): Account[] {
    return (this.statements.all.all() as Row[]).map(fromRow);
  }

  /** Whether the project has any account in use (team mode needs one). */
  hasActive(): boolean {
    return (this.statements.active.get() as number) > 0;
  }

  /** The account in use whose token this is; null for an unknown token or a removed account's. */
  byToken(token: string): Account | null {
    const row = this.statements.byToken.get(tokenHash(token)) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  /** The account as it is now (a removal made since a request began shows here). */
  byId(id: string): Account | null {
    const row = this.statements.byId.get(id) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  /**
   * Adds an account and returns its token (to be shown once). The first account in use is an admin whatever role was
   * asked: someone must be able to manage the others.
   */
  add(name: string, role: AccountRole, by: ChangedBy): { account: Account; token: string } {
    const problem = accountNameProblem(name);
    if (problem) throw new AccountError(`account name: ${problem}`);
    if (!accountRoles.includes(role)) throw new AccountError(`role: reviewer, approver or admin, not ${String(role)}`);
    const trimmed = name.trim();
    return this.write(() => {
      const existing = this.statements.byName.get(trimmed) as Row | undefined;
      if (existing) {
        throw new AccountError(
          existing.removed_at
            ? `"${existing.name}" was the name of an account removed at ${existing.removed_at}; a name is never given to a second person (the trail would mix them up): choose another`
            : `there is already an account "${existing.name}"`,
        );
      }
      const given: AccountRole = this.hasActive() ? role : 'admin';
      const token = newToken();
      const account: Account = { id: randomUUID(), name: trimmed, role: given, createdAt: new Date().toISOString(), removedAt: null };
      this.statements.insert.run(account.id, account.name, account.role, tokenHash(token), account.createdAt);
      this.chain.append('accounts', account.id);
      this.record('account-added', account.name, account.role, given === role ? null : `the first account is an admin (${role} was asked)`, by);
      return { account, token };
    });
  }

  /** Removes an account: its token opens nothing from now on. The last admin cannot be removed. */
  remove(name: string, by: ChangedBy): Account {
    return this.write(() => {
      const account = this.active(name);
      if (account.role === 'admin' && (this.statements.activeAdmins.get() as number) === 1 && this.hasOthers(account)) {
        throw new AccountError(`"${account.name}" is the last admin: add another admin first (nobody could manage the accounts)`);
      }
      const at = new Date().toISOString();
      this.statements.remove.run(at, account.id);
      this.chain.append('accounts', account.id);
      this.record('account-removed', account.name, account.role, null, by);
      return { ...account, removedAt: at };
    });
  }

  /** Gives the account a new token (the old one opens nothing from now on) and returns it, to be shown once. */
  reset(name: string, by: ChangedBy): { account: Account; token: string } {
    return this.write(() => {
      const account = this.active(name);
      const token = newToken();
      this.statements.reset.run(tokenHash(token), account.id);
      this.chain.append('accounts', account.id);
      this.record('token-reset', account.name, account.role, null, by);
      return { account, token };
    });
  }

  /** Whether four eyes applies (on unless an admin turned it off). */
  fourEyes(): boolean {
    return (this.statements.rule.get('four_eyes') as string | undefined) !== 'off';
  }

  setFourEyes(on: boolean, by: ChangedBy): void {
    this.write(() => {
      this.statements.setRule.run('four_eyes', on ? 'on' : 'off');
      this.record('rule', null, null, `four-eyes ${on ? 'on' : 'off'}`, by);
    });
  }

  /** The account events, oldest first (the trail of who could do what, and the rules). */
  events(): { at: string; action: string; account: string | null; role: string | null; detail: string | null; by: string | null }[] {
    return (this.statements.events.all() as { at: string; action: string; account: string | null; role: string | null; detail: string | null; by_name: string | null }[]).map(
      ({ by_name, ...event }) => ({ at: event.at, action: event.action, account: event.account, role: event.role, detail: event.detail, by: by_name }),
    );
  }

  private active(name: string): Account {
    const row = this.statements.byName.get(name.trim()) as Row | undefined;
    if (!row || row.removed_at) throw new CodedError(errorCodes.notFound, `no account "${name.trim()}" in use in this project`);
    return fromRow(row);
  }

  private hasOthers(account: Account): boolean {
    return this.list().some((a) => a.id !== account.id && a.removedAt === null);
  }

  private record(action: string, account: string | null, role: string | null, detail: string | null, by: ChangedBy): void {
    const id = randomUUID();
    this.statements.event.run(id, new Date().toISOString(), action, account, role, detail, by.name, osAccountName());
    this.chain.append('account_events', id);
  }

  private write<T>(change: () => T): T {
    return this.db.transaction(change).immediate();
  }
}
