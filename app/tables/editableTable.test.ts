import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../testing/testdataPaths.js';
import {
  canonicalTableHtml,
  gridFromHtmlTable,
  gridFromTopLeft,
  gridToHtml,
  locateTables,
  parseHtml,
  parseHtmlTable,
  parsePipeTable,
  serializeTable,
  setCellText,
  toTopLeftGrid,
  type EditableTable,
} from './index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.RECTO_TESTDATA ?? path.resolve(repoRoot, '..', 'shared', 'testdata');
const pubtabnetDir = path.join(testdata, 'pubtabnet', 'derived_html');
const icdarDir = path.join(testdata, 'camelot', 'icdar2013_derived_from_str_xml');

function must(table: EditableTable | null): EditableTable {
  if (!table) throw new Error('no table parsed');
  return table;
}

/** The table's grid as the checks read it (texts, spans, header flags), from any HTML. */
const semanticGrid = (html: string) => gridFromHtmlTable(parseHtml(html).children.find((n) => typeof n !== 'string' && n.tag === 'table') as never);

describe('editable tables: round trip on hand-written tables', () => {
  it('keeps implied end tags, attributes and entities byte for byte until edited', () => {
    const source = '<table border=1><tr><th>k<td>v &amp; x<tr><td colspan="2" style="x">a</td></tr></table>';
    const table = must(parseHtmlTable(source));
    expect(table.rowCount).toBe(2);
    expect(table.colCount).toBe(2);
    expect(table.cells.map((c) => c.text)).toEqual(['k', 'v & x', 'a']);
    expect(serializeTable(table)).toBe(source);
    const edited = setCellText(table, 0, 1, 'w < 3 $');
    if (edited instanceof Error) throw edited;
    expect(serializeTable(edited)).toBe('<table border=1><tr><th>k<td>w &lt; 3 &#36;<tr><td colspan="2" style="x">a</td></tr></table>');
  });

  it('writes a structurally edited table again from the grid with its tags and attributes', () => {
    const source = '<table>\n<thead>\n<tr><th colspan="2">H</th></tr>\n</thead>\n<tbody>\n<tr><td align="right">1</td><td><b>2</b></td></tr>\n</tbody>\n</table>';
    const table = must(parseHtmlTable(source));
    expect(canonicalTableHtml(table)).toBe(source);
  });

  it('reads a pipe table and splices an edit into its cell', () => {
    const source = '| a | b \\| c |\n|:--|--:|\n| 1 | 2 |';
    const table = must(parsePipeTable(source));
    expect(table.cells.map((c) => c.text)).toEqual(['a', 'b | c', '1', '2']);
    expect(serializeTable(table)).toBe(source);
    const edited = setCellText(table, 1, 1, 'x|y');
    if (edited instanceof Error) throw edited;
    expect(serializeTable(edited)).toBe('| a | b \\| c |\n|:--|--:|\n| 1 | x\\|y |');
  });

  it('locates HTML and pipe tables in Markdown, ignoring nested tables', () => {
    const md = 'Intro\n\n<table><tr><td><table><tr><td>in</td></tr></table></td></tr></table>\n\n| h |\n|---|\n| v |\n\nEnd';
    const found = locateTables(md);
    expect(found.map((t) => t.format)).toEqual(['html', 'pipe']);
    expect(md.slice(...found[0]!.range)).toBe('<table><tr><td><table><tr><td>in</td></tr></table></td></tr></table>');
    expect(md.slice(...found[1]!.range)).toBe('| h |\n|---|\n| v |');
    expect(must(parseHtmlTable(md.slice(...found[0]!.range))).cells[0]!.html).toBe('<table><tr><td>in</td></tr></table>');
  });
});

const havePubtabnet = existsSync(pubtabnetDir);
if (!havePubtabnet) console.log(`SKIPPED: grid round trip on PubTabNet: ${pubtabnetDir} is absent`);

describe.skipIf(!havePubtabnet)('grid round trip on every PubTabNet table', () => {
  const files = havePubtabnet ? readdirSync(pubtabnetDir).filter((f) => f.endsWith('.html')) : [];
  it.each(files)('%s: parse → grid → HTML is identical, both by splicing and written from the grid', (file) => {
    const page = readFileSync(path.join(pubtabnetDir, file), 'utf8');
    const locations = locateTables(page);
    expect(locations.length).toBeGreaterThan(0);
    for (const location of locations) {
      const source = page.slice(...location.range);
      const table = must(parseHtmlTable(source));
      expect(serializeTable(table)).toBe(source);
      expect(canonicalTableHtml(table)).toBe(source);
      expect(semanticGrid(canonicalTableHtml({ ...table, structureChanged: true }))).toEqual(semanticGrid(source));
      // The grid shows each cell's text as the checks read it (entities decoded, tags dropped).
      expect(table.cells.map((cell) => cell.text)).toEqual(semanticGrid(source).cells.map((cell) => cell.text));
    }
  });
});

interface IcdarSummary {
  file: string;
  rows: number;
  cols: number;
  cells_with_spans: { start_row: number; start_col: number; end_row: number; end_col: number }[];
}
const haveIcdar = existsSync(path.join(icdarDir, '_summary.json'));
if (!haveIcdar) console.log(`SKIPPED: grid round trip on ICDAR 2013: ${icdarDir} is absent`);

describe.skipIf(!haveIcdar)('grid round trip on every ICDAR 2013 (EU) table', () => {
  const summary = haveIcdar ? (JSON.parse(readFileSync(path.join(icdarDir, '_summary.json'), 'utf8')) as IcdarSummary[]) : [];
  it.each(summary.map((s) => [s.file, s] as const))('%s: its HTML (spans from the -str.xml) round-trips and reads back as the CSV', (_file, entry) => {
    const matrix = parseCsv(readFileSync(path.join(icdarDir, entry.file), 'utf8'));
    const spans = entry.cells_with_spans.map((s) => ({ row: s.start_row, col: s.start_col, rowspan: s.end_row - s.start_row + 1, colspan: s.end_col - s.start_col + 1 }));
    const html = gridToHtml(gridFromTopLeft(matrix, spans));
    const table = must(parseHtmlTable(html));
    expect(table.rowCount).toBe(entry.rows);
    expect(table.colCount).toBe(entry.cols);
    expect(serializeTable(table)).toBe(html);
    expect(canonicalTableHtml(table)).toBe(html);
    const collapsed = matrix.map((row) => row.map((text) => text.replace(/\s+/g, ' ').trim()));
    expect(toTopLeftGrid(semanticGrid(canonicalTableHtml(table)))).toEqual(collapsed);
  });
});

const olmocrOutputs = path.join(testdata, 'olmocr', 'olmocr', 'bench', 'sample_data', 'olmocr_pipeline');
const haveOlmocr = existsSync(olmocrOutputs);
if (!haveOlmocr) console.log(`SKIPPED: grid round trip on olmOCR pipeline outputs: ${olmocrOutputs} is absent`);

describe.skipIf(!haveOlmocr)('grid round trip on the tables of real engine Markdown (olmOCR pipeline outputs)', () => {
  it('every table splices back byte-identical, and written from the grid reads back as the same grid', () => {
    let tables = 0;
    for (const file of readdirSync(olmocrOutputs).filter((f) => f.endsWith('.md'))) {
      const markdown = readFileSync(path.join(olmocrOutputs, file), 'utf8');
      for (const location of locateTables(markdown)) {
        const source = markdown.slice(...location.range);
        const table = must(location.format === 'html' ? parseHtmlTable(source) : parsePipeTable(source));
        expect(serializeTable(table)).toBe(source);
        if (location.format === 'html') expect(semanticGrid(canonicalTableHtml(table))).toEqual(semanticGrid(source));
        tables++;
      }
    }
    expect(tables).toBeGreaterThan(0);
  });
});

describe('pipe-table cells with entities', () => {
  it('shows the characters the entities stand for and writes a dollar back as the entity', () => {
    const table = parsePipeTable('| Item | Price |\n|---|---|\n| Fish &amp; chips | &#36;5.00 |\n')!;
    expect(table.cells.map((cell) => cell.text)).toEqual(['Item', 'Price', 'Fish & chips', '$5.00']);
    const edited = setCellText(table, 1, 1, '$6.00');
    if (edited instanceof Error) throw edited;
    expect(serializeTable(edited)).toBe('| Item | Price |\n|---|---|\n| Fish &amp; chips | &#36;6.00 |\n');
  });
});
