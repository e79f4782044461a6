import { describe, expect, it } from 'vitest';
import { errorCodes } from '../../app/contract/wire.js';
import { CorpusExportRefusedError } from '../corpus/exportCorpus.js';
import { CorpusImportError } from '../corpus/importCorpus.js';
import { UnknownEngineError } from '../engines/engineRegistry.js';
import { EvaluationBusyError } from '../evaluate/evaluationJobs.js';
import { NotFoundError } from '../store/documents.js';
import { InvalidFieldError } from '../store/fieldRevisions.js';
import { ProjectFileError } from '../store/file/projectFileError.js';
import { createDispatch } from './dispatch.js';
import { UnsupportedInShellError, type Handlers } from './handlers.js';
import { FileRejectedError, NoProjectError } from './rectoSession.js';
import { SaveConflictError } from './conflictHandlers.js';

/** A dispatch whose one handler throws `error`. */
const throwing = (error: unknown) => createDispatch({ 'app.info': () => Promise.reject(error) } as unknown as Handlers, { log: () => {} });

describe('dispatch error codes', () => {
  it.each([
    [new NoProjectError(), errorCodes.noProject],
    [new NotFoundError('page p1 not found'), errorCodes.notFound],
    [new ProjectFileError('/x/a.recto', 'not a Recto project'), errorCodes.badInput],
    [new FileRejectedError('a.pdf: too large'), errorCodes.badInput],
    [new UnknownEngineError('no engine "x"'), errorCodes.badInput],
    [new CorpusExportRefusedError('folder not empty'), errorCodes.badInput],
    [new CorpusImportError('no records.jsonl'), errorCodes.badInput],
    [new InvalidFieldError('"x" is not an invoice field'), errorCodes.badInput],
    [new EvaluationBusyError('an evaluation runs'), errorCodes.badInput],
    [new UnsupportedInShellError('no native dialog'), errorCodes.unsupported],
  ])('%s leaves as its own code, message kept', async (error, code) => {
    expect(await throwing(error)('app.info', {})).toEqual({ ok: false, error: { code, message: (error as Error).message } });
  });

  it('anything else is an internal error', async () => {
    expect(await throwing(new TypeError('x is undefined'))('app.info', {})).toEqual({ ok: false, error: { code: errorCodes.internal, message: 'Internal error: x is undefined' } });
  });

  it('a refusal with a detail (a save conflict) carries it on the wire', async () => {
    const detail = { kind: 'revision', conflict: { id: 'c1' } } as never;
    expect(await throwing(new SaveConflictError('The page changed', detail))('app.info', {})).toEqual({ ok: false, error: { code: errorCodes.conflict, message: 'The page changed', detail } });
  });
});
