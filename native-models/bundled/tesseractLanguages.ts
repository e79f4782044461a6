/**
 * Where tesseract.js reads its language models from, fully offline: each language's LSTM model from its
 * `@tesseract.js-data/<code>` package (gzipped, `4.0.0_best_int`, the files tesseract.js itself would download for
 * LSTM-only use).
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);

export const TESSERACT_LANGUAGE = 'eng';
/** LSTM-only data: smaller and faster than the legacy+LSTM files in `4.0.0/`, and what OEM.LSTM_ONLY needs. */
export const TESSERACT_DATA_FOLDER = '4.0.0_best_int';

export function tesseractLanguagePath(language = TESSERACT_LANGUAGE): string {
  return path.join(path.dirname(require.resolve(`@tesseract.js-data/${language}/package.json`)), TESSERACT_DATA_FOLDER);
}

/** Languages whose data package is installed (the ones `languages` may name). */
export function installedOcrLanguages(): string[] {
  const root = path.dirname(path.dirname(require.resolve(`@tesseract.js-data/${TESSERACT_LANGUAGE}/package.json`)));
  return readdirSync(root).filter((name) => name !== 'osd' && existsSync(path.join(root, name, TESSERACT_DATA_FOLDER, `${name}.traineddata.gz`)));
}

/**
 * A folder tesseract.js can read every language of `languages` from (`<folder>/<code>.traineddata.gz`): the
 * package's own folder for one language; for several (each lives in its own package) a folder in the OS temp dir
 * of symbolic links to the packages' files — tesseract.js takes one langPath, and its in-memory `{code, data}`
 * form is mishandled by tesseract.js 7's initialise step. Unknown language → clear error.
 */
export async function ocrLanguageFolder(languages: readonly string[]): Promise<string> {
  const folders = languages.map((code) => {
    if (!/^[a-z_]{3,12}$/u.test(code)) throw new Error(`OCR language "${code}" is not a tesseract language code`);
    try {
      return tesseractLanguagePath(code);
    } catch {
      throw new Error(`OCR language "${code}" is not installed (npm package @tesseract.js-data/${code}); installed: ${installedOcrLanguages().join(', ')}`);
    }
  });
  if (languages.length === 1) return folders[0];
  const folder = path.join(os.tmpdir(), `recto-tessdata-${languages.join('+')}`);
  await mkdir(folder, { recursive: true });
  await Promise.all(
    languages.map(async (code, i) => {
      const link = path.join(folder, `${code}.traineddata.gz`);
      if (!existsSync(link)) await symlink(path.join(folders[i], `${code}.traineddata.gz`), link).catch(() => undefined);
    }),
  );
  return folder;
}
