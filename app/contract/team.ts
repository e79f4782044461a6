/**
 * Team mode's shapes (docs/team-mode.md): the roles an account has and what each may do. Which method needs which
 * permission is main/services/permissions.ts; this is what the renderer may show (who is signed in, as what).
 */
import { z } from 'zod';

/** reviewer: corrects and proposes; approver: also approves and rejects; admin: also manages the project and accounts. */
export const accountRoles = ['reviewer', 'approver', 'admin'] as const;
export type AccountRole = (typeof accountRoles)[number];

/** The person a request acts for, as `app.info` gives it in team mode. */
export const signedInUserSchema = z.object({ name: z.string(), role: z.enum(accountRoles) });
export type SignedInUser = z.infer<typeof signedInUserSchema>;
