/**
 * A strict RFC 4180 reader for master-data files, bounded so that a hostile file costs bounded time and memory:
 * the file's size, a row's columns and a cell's length are capped, and the first thing wrong stops the read with the
 * file and the line. Strict because a lenient reader guesses, and a guessed purchase order is a wrong payment: a
 * quote inside an unquoted cell, text after a closing quote, a quote left open, a NUL byte, bytes that are not UTF-8
 * and a row with more or fewer cells than the header are refused. The delimiter is the header's (comma, semicolon or
 * tab: spreadsheets in comma-decimal locales write semicolons). No CSV library is installed (csv-parse would be the
 * one to add); this one is a state machine over the decoded text.
 */

export class MasterDataFileError extends Error {
  override name = 'MasterDataFileError';
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly reason: string,
  ) {
    super(`${file}${line !== null ? `, line ${line}` : ''}: ${reason}`);
  }
}

export interface CsvLimits {
  maxBytes: number;
  maxColumns: number;
  maxCellLength: number;
  maxRows: number;
}

/** Master data of a large company fits: a million PO lines of a dozen short cells is about 100 MB. */
export const defaultCsvLimits: CsvLimits = { maxBytes: 256 * 1024 * 1024, maxColumns: 64, maxCellLength: 2000, maxRows: 2_000_000 };

export type Delimiter = ',' | ';' | '\t';

export interface CsvRow {
  /** The 1-based line of the file the row starts on. */
  line: number;
  cells: string[];
}

export interface CsvTable {
  delimiter: Delimiter;
  header: string[];
  rows: CsvRow[];
}

const lineOfOffset = (bytes: Uint8Array, offset: number): number => {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
};

/** The text of the file, or the line of the first byte that is not UTF-8 or is NUL. */
function decode(bytes: Uint8Array, file: string): string {
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw new MasterDataFileError(file, lineOfOffset(bytes, nul), 'a NUL byte (a binary file, or UTF-16: save it as UTF-8)');
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    let start = 0;
    let line = 1;
    const strict = new TextDecoder('utf-8', { fatal: true });
    while (start < bytes.length) {
      let end = bytes.indexOf(0x0a, start);
      if (end < 0) end = bytes.length;
      try {
        strict.decode(bytes.subarray(start, end));
      } catch {
        break;
      }
      start = end + 1;
      line++;
    }
    throw new MasterDataFileError(file, line, 'not UTF-8 text (save the file as UTF-8)');
  }
}

/** The header line's delimiter: the one of comma, semicolon and tab it holds most of outside quotes. */
function detectDelimiter(text: string): Delimiter {
  const counts: Record<Delimiter, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && (c === ',' || c === ';' || c === '\t')) counts[c]++;
  }
  return (Object.entries(counts) as [Delimiter, number][]).sort((a, b) => b[1] - a[1])[0]![0];
}

export function readCsv(bytes: Uint8Array, file: string, limits: CsvLimits = defaultCsvLimits): CsvTable {
  if (bytes.length > limits.maxBytes) throw new MasterDataFileError(file, null, `${bytes.length} bytes, more than the ${limits.maxBytes} a master-data file may have`);
  const text = decode(bytes, file);
  const delimiter = detectDelimiter(text);
  const records: CsvRow[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let i = 0;
  const fail = (reason: string, at = line): never => {
    throw new MasterDataFileError(file, at, reason);
  };
  const pushCell = () => {
    if (cells.length >= limits.maxColumns) fail(`more than ${limits.maxColumns} columns`, recordLine);
    cells.push(cell);
    cell = '';
  };
  const pushRecord = () => {
    pushCell();
    // A blank line is no record.
    if (!(cells.length === 1 && cells[0] === '')) {
      if (records.length >= limits.maxRows + 1) fail(`more than ${limits.maxRows} rows`, recordLine);
      records.push({ line: recordLine, cells });
    }
    cells = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      if (cell !== '') fail('a quote inside an unquoted cell');
      const openedOn = line;
      i++;
      for (;;) {
        if (i >= text.length) fail('a quoted cell is never closed', openedOn);
        const q = text[i]!;
        if (q === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n') line++;
        cell += q;
        if (cell.length > limits.maxCellLength) fail(`a cell longer than ${limits.maxCellLength} characters`, openedOn);
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== delimiter && next !== '\n' && next !== '\r') fail('text after a closing quote');
      if (cells.length >= limits.maxColumns) fail(`more than ${limits.maxColumns} columns`, recordLine);
      cells.push(cell);
      cell = '';
      if (next === delimiter) i++;
      else if (next === undefined) {
        records.push({ line: recordLine, cells });
        cells = [];
        break;
      } else {
        if (next === '\r') i++;
        if (text[i] === '\n') i++;
        records.push({ line: recordLine, cells });
        cells = [];
        line++;
        recordLine = line;
      }
      continue;
    }
    if (c === delimiter) {
      pushCell();
      i++;
    } else if (c === '\r' || c === '\n') {
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      pushRecord();
      line++;
      recordLine = line;
    } else {
      // An unquoted cell runs to the next delimiter or line end; a quote inside it is malformed.
      let j = i;
      while (j < text.length) {
        const d = text[j];
        if (d === delimiter || d === '\n' || d === '\r' || d === '"') break;
        j++;
      }
      cell = text.slice(i, j);
      if (cell.length > limits.maxCellLength) fail(`a cell longer than ${limits.maxCellLength} characters`, recordLine);
      if (text[j] === '"') fail('a quote inside an unquoted cell');
      i = j;
    }
    if (records.length > limits.maxRows + 1) fail(`more than ${limits.maxRows} rows`, recordLine);
  }
  if (cell !== '' || cells.length > 0) pushRecord();
  const [head, ...rows] = records;
  if (!head) throw new MasterDataFileError(file, 1, 'empty: a header row is required');
  const header = head.cells.map((h) => h.trim().toLowerCase());
  for (const row of rows) {
    if (row.cells.length !== header.length) fail(`${row.cells.length} cells where the header has ${header.length}`, row.line);
  }
  return { delimiter, header, rows };
}
