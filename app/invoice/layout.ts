/**
 * Words → text lines → segments. A segment is a run of words on one line without a wide gap (a column of a form or
 * table); invoice labels and their values are usually separate segments of one line, or a segment and the segment
 * below it. Also builds pseudo-words from plain text laid out with spaces (pdftotext -layout) or from Markdown, so the
 * extractor works on any engine's output.
 */
import type { Word } from '../model/extraction.js';

export interface Segment {
  text: string;
  words: Word[];
  x1: number;
  x2: number;
}

export interface TextLine {
  y: number;
  height: number;
  words: Word[];
  segments: Segment[];
  text: string;
}

/** The middle value (upper median), 0 for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * OCR reads ruling lines, underlines and table borders as runs of tildes, underscores or dashes ("~~", "—_—"). Such a
 * word names nothing, and set between two header cells it would bridge their gap and run them into one segment
 * ("VK-Preis ~~ Zeilenbetrag"). A single hyphen or bar stays: it separates parts of a line ("Name AG - Street").
 */
const ruleArtefact = /^(?:[~_—]|[~_=¬—–\-|]{2,})$/u;

/** A word this many times the page's median word height, read below UNSURE_TALL, lends its line only a body line's band (wordsToLines). */
const TALL_WORD = 3;
const UNSURE_TALL = 0.5;

/** Groups words into lines (vertical-centre overlap), left to right, top to bottom; splits lines at wide gaps. */
export function wordsToLines(words: readonly Word[], gapInCharWidths = 1.8): TextLine[] {
  const usable = words.filter((w) => w.text.trim().length > 0 && !ruleArtefact.test(w.text.trim()));
  const sorted = [...usable].sort((a, b) => (a.box[1] + a.box[3]) / 2 - (b.box[1] + b.box[3]) / 2);
  const bodyHeight = median(usable.map((w) => w.box[3] - w.box[1]));
  /**
   * The vertical band a word lends its line. A box several lines of body type tall that OCR is unsure of (its box
   * around a smudge, a stamp or a logo across three lines of a receipt, "Jay" at 0.08 from 457 to 536 beside lines
   * 14 px high) would stretch its line's band over the lines above and below and join them ("Total Inclusive GST:"
   * with the "20.00" of "CASH 20.00" under it): it lends only a body line's height about its centre, and its own
   * line still holds it. A tall word OCR is sure of is print in a large type (a merchant's name, "118 MJ MOOKATA
   * HOUSE"), whose words stand a little apart in height and lend their whole box.
   */
  const band = (word: Word): [number, number] => {
    const centre = (word.box[1] + word.box[3]) / 2;
    const unsureTall = bodyHeight > 0 && word.box[3] - word.box[1] > TALL_WORD * bodyHeight && word.confidence !== null && word.confidence < UNSURE_TALL;
    return unsureTall ? [centre - bodyHeight / 2, centre + bodyHeight / 2] : [word.box[1], word.box[3]];
  };
  const lines: { words: Word[]; top: number; bottom: number }[] = [];
  for (const word of sorted) {
    const centre = (word.box[1] + word.box[3]) / 2;
    const line = lines[lines.length - 1];
    // A word under another one of the line is on a line of its own: a tall word (a title, a logo's text) spans
    // several lines of smaller type beside it, which would otherwise run together ("Coolblue Weena 664 B.V.").
    // (Overlapping boxes of one text line, as OCR draws them, share a vertical centre band and stay together.)
    const stacked = line?.words.some(
      (w) =>
        Math.min(w.box[2], word.box[2]) - Math.max(w.box[0], word.box[0]) > 0.5 * Math.min(w.box[2] - w.box[0], word.box[2] - word.box[0]) &&
        (centre < w.box[1] || centre > w.box[3]) &&
        ((w.box[1] + w.box[3]) / 2 < word.box[1] || (w.box[1] + w.box[3]) / 2 > word.box[3]),
    );
    const [top, bottom] = band(word);
    if (line && !stacked && centre >= line.top && centre <= line.bottom) {
      line.words.push(word);
      line.top = Math.min(line.top, top);
      line.bottom = Math.max(line.bottom, bottom);
    } else lines.push({ words: [word], top, bottom });
  }
  return lines.map(({ words: lineWords }) => {
    const top = Math.min(...lineWords.map((w) => w.box[1]));
    const bottom = Math.max(...lineWords.map((w) => w.box[3]));
    lineWords.sort((a, b) => a.box[0] - b.box[0]);
    const charWidth = median(lineWords.map((w) => (w.box[2] - w.box[0]) / Math.max(1, Array.from(w.text).length)));
    const segments: Segment[] = [];
    for (const word of lineWords) {
      const last = segments[segments.length - 1];
      const gap = last ? word.box[0] - last.x2 : Infinity;
      if (last && gap <= gapInCharWidths * charWidth) {
        last.words.push(word);
        last.text += ' ' + word.text;
        last.x2 = Math.max(last.x2, word.box[2]);
      } else segments.push({ text: word.text, words: [word], x1: word.box[0], x2: word.box[2] });
    }
    return { y: top, height: bottom - top, words: lineWords, segments, text: segments.map((s) => s.text).join('  ') };
  });
}

/** Pseudo-words from space-laid-out text: column → x (charWidth px per column), line index → y. */
export function wordsFromLayoutText(text: string, charWidth = 6, lineHeight = 12): Word[] {
  const words: Word[] = [];
  text.split(/\r?\n|\f/).forEach((line, row) => {
    for (const m of line.matchAll(/\S+/g)) {
      const col = Array.from(line.slice(0, m.index ?? 0)).length;
      const length = Array.from(m[0]).length;
      const y = row * lineHeight;
      words.push({ text: m[0], box: [col * charWidth, y, (col + length) * charWidth, y + lineHeight * 0.8], confidence: null });
    }
  });
  return words;
}

/**
 * Pseudo-words from Markdown: each text line is a row; pipe-table and HTML-table cells become segments separated by a
 * wide gap. Emphasis markers and heading hashes are dropped.
 */
export function wordsFromMarkdown(markdown: string, charWidth = 6, lineHeight = 12): Word[] {
  const rows: { cells: string[]; table: boolean }[] = [];
  const htmlRows = markdown.replace(/<tr[\s>][\s\S]*?<\/tr>/gi, (tr) => {
    const cells = [...tr.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/gi)].map((m) => m[1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
    return '\n| ' + cells.map((c) => c || ' ').join(' | ') + ' |\n';
  });
  for (const raw of htmlRows.replace(/<[^>]+>/g, ' ').split(/\r?\n/)) {
    const line = raw.replace(/^\s{0,3}#{1,6}\s+/, '').replace(/\*\*|__/g, '').trim();
    if (!line || /^\|?\s*:?-{2,}/.test(line)) continue;
    const table = line.startsWith('|');
    rows.push({ cells: table ? line.replace(/^\||\|$/g, '').split('|').map((c) => c.trim()) : line.split(/\s{2,}/), table });
  }
  // Table rows of one block share column positions (widest cell per column), so values sit under their headers.
  const columnStarts: number[][] = rows.map(() => []);
  for (let i = 0; i < rows.length; ) {
    let j = i;
    while (j < rows.length && rows[j]!.table === rows[i]!.table && rows[i]!.table) j++;
    if (j === i) {
      let col = 0;
      columnStarts[i] = rows[i]!.cells.map((cell) => ((col += Array.from(cell).length + 4), col - Array.from(cell).length - 4));
      i++;
      continue;
    }
    const widths: number[] = [];
    for (let k = i; k < j; k++) rows[k]!.cells.forEach((c, n) => (widths[n] = Math.max(widths[n] ?? 0, Array.from(c).length)));
    const starts = widths.map((_, n) => widths.slice(0, n).reduce((a, w) => a + w + 4, 0));
    for (let k = i; k < j; k++) columnStarts[k] = starts;
    i = j;
  }
  const words: Word[] = [];
  rows.forEach(({ cells }, row) => {
    cells.forEach((cell, n) => {
      for (const m of cell.matchAll(/\S+/g)) {
        const start = columnStarts[row]![n]! + Array.from(cell.slice(0, m.index ?? 0)).length;
        const length = Array.from(m[0]).length;
        words.push({
          text: m[0],
          box: [start * charWidth, row * lineHeight, (start + length) * charWidth, row * lineHeight + lineHeight * 0.8],
          confidence: null,
        });
      }
    });
  });
  return words;
}
