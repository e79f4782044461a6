import path from 'node:path';
import { CodedError, errorCodes } from '../../../app/contract/wire.js';

/** Why a project could not be opened; the message names the file and the reason. */
export class ProjectFileError extends CodedError {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(errorCodes.badInput, `${path.basename(file)}: ${reason}`);
    this.name = 'ProjectFileError';
  }
}
