/**
 * File-system paths in requests. A relative path would be resolved against the main side's working folder — a
 * folder the user never chose — so the contract takes absolute paths only (POSIX `/…`, Windows `C:\…` or `\\server\…`).
 */
import { z } from 'zod';

const absolutePath = /^(\/|[A-Za-z]:[\\/]|\\\\[^\\/])/;

export const absolutePathSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((value) => absolutePath.test(value), 'must be an absolute path')
  .refine((value) => !value.includes('\0'), 'must not contain a NUL character');
