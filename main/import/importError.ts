/**
 * The one error import throws for bad input: the message always names the file and the reason, so the CLI and the
 * UI can show it as is.
 */
import path from 'node:path';

export type ImportErrorReason =
  | 'empty'
  | 'unreadable'
  | 'unsupported-type'
  | 'corrupt'
  | 'encrypted'
  | 'no-pages'
  | 'too-large';

export class ImportError extends Error {
  override readonly name = 'ImportError';
  constructor(
    readonly filePath: string,
    readonly reason: ImportErrorReason,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`Cannot import ${path.basename(filePath)} (${filePath}): ${detail}`, options);
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
