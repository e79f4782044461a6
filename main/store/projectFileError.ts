import path from 'node:path';

/** Why a project could not be opened; the message names the file and the reason. */
export class ProjectFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${path.basename(file)}: ${reason}`);
    this.name = 'ProjectFileError';
  }
}
