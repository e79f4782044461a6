/**
 * Settings in team mode (docs/team-mode.md). The server's settings file holds the project's settings (engine for new
 * readings, page limit, recent projects, remote engine) and only an admin changes them. A person's own settings are
 * theirs: the name is the account's (set with `recto users`, never through settings.set, so nothing can be recorded
 * under another name) and is taken as confirmed; the theme lives in each person's browser. An account that is not an
 * admin sees neither the server's recent project paths nor its remote endpoints. The single-user app reads and writes
 * the settings file as before.
 */
import type { z } from 'zod';
import type { Settings, settingsPatchSchema } from '../../app/contract/methods.js';
import { ForbiddenError, requireAdmin, ROLE_RULE } from './permissions.js';
import type { RequestContext } from './requestContext.js';
import type { RectoSession } from './rectoSession.js';

type SettingsPatch = z.output<typeof settingsPatchSchema>;

/** The settings as the request's person sees them. */
export function settingsFor(session: RectoSession, context: RequestContext): Settings {
  const settings = session.settings.get();
  const account = context.account;
  if (!account) return settings;
  const personal = { ...settings, authorName: account.name, reviewerConfirmed: true };
  if (account.role === 'admin') return personal;
  const { remote: _remote, ...shown } = personal;
  return { ...shown, recentProjects: [] };
}

/** Changes settings as the request's person may: in team mode the project's only by an admin, the name never. */
export function setSettingsFor(session: RectoSession, context: RequestContext, patch: SettingsPatch): Settings {
  const account = context.account;
  if (!account) return session.settings.update(patch);
  const { authorName, reviewerConfirmed: _confirmed, ...project } = patch;
  if (authorName !== undefined && authorName.trim() !== account.name) {
    throw new ForbiddenError(`${ROLE_RULE}: in team mode the reviewer name is the account's (${account.name}); an admin renames accounts with recto users`);
  }
  const changes = Object.fromEntries(Object.entries(project).filter(([, value]) => value !== undefined));
  if (Object.keys(changes).length > 0) {
    requireAdmin(context, `changing the project's settings (${Object.keys(changes).join(', ')})`);
    session.settings.update(changes);
  }
  return settingsFor(session, context);
}
