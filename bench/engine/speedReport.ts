/**
 * The pure half of `npm run bench:engine`: per-run figures (pages/s, CER over the pages that have a ground truth),
 * the report in the JSON shape issue 4 asks for, and the printed table.
 */
import { characterErrorRate } from '../../app/checks/textDistance.js';

/** One engine's output on one page; `reference` null when the page has no ground-truth text. */
export interface PageText {
  text: string;
  reference: string | null;
}

export interface EngineRun {
  seconds: number;
  /** CPU seconds the engine used (this process for Recto, the child processes for tesseract); null when unknown. */
  cpuSeconds: number | null;
  texts: PageText[];
}

/**
 * The text's words sorted: CER of sorted word sequences ("order-free CER") measures recognition without reading
 * order. Plain CER against a pdftotext layer counts a block read in another order as deleted and inserted again.
 */
export function sortedWords(text: string): string {
  return text.split(/\s+/).filter(Boolean).sort().join(' ');
}

/**
 * Micro-averaged CER (total edits / total reference characters, spaces collapsed) over pages with a reference, and
 * the same over sorted words (`orderFreeCer`).
 */
export function microCer(texts: readonly PageText[]): { cer: number; orderFreeCer: number; pages: number; referenceChars: number } {
  let edits = 0;
  let orderFreeEdits = 0;
  let chars = 0;
  let pages = 0;
  for (const t of texts) {
    if (t.reference === null) continue;
    const n = t.reference.replace(/\s+/g, ' ').trim().length;
    if (n === 0) continue;
    edits += characterErrorRate(t.text, t.reference) * n;
    orderFreeEdits += characterErrorRate(sortedWords(t.text), sortedWords(t.reference)) * n;
    chars += n;
    pages++;
  }
  return { cer: chars === 0 ? 0 : edits / chars, orderFreeCer: chars === 0 ? 0 : orderFreeEdits / chars, pages, referenceChars: chars };
}

export interface SetFigures {
  recto_pages_per_s: number;
  tesseract_pages_per_s: number;
  /** recto / tesseract pages per second. */
  ratio: number;
  recto_cer: number;
  tesseract_cer: number;
}

/** Exactly the shape of issue 4: `{ pages, mixed: {…}, scans: {…} }`; `pages` counts the pages of each set. */
export interface SpeedReport {
  pages: { mixed: number; scans: number };
  mixed: SetFigures;
  scans: SetFigures;
}

const round = (x: number, digits: number): number => Number(x.toFixed(digits));

export function setFigures(pages: number, recto: EngineRun, tesseract: EngineRun): SetFigures {
  if (recto.texts.length !== pages || tesseract.texts.length !== pages) {
    throw new Error(`both engines must read the same ${pages} pages (recto ${recto.texts.length}, tesseract ${tesseract.texts.length})`);
  }
  const rectoRate = recto.seconds > 0 ? pages / recto.seconds : 0;
  const tesseractRate = tesseract.seconds > 0 ? pages / tesseract.seconds : 0;
  return {
    recto_pages_per_s: round(rectoRate, 3),
    tesseract_pages_per_s: round(tesseractRate, 3),
    ratio: tesseractRate > 0 ? round(rectoRate / tesseractRate, 3) : 0,
    recto_cer: round(microCer(recto.texts).cer, 4),
    tesseract_cer: round(microCer(tesseract.texts).cer, 4),
  };
}

export function speedReport(sets: { mixed: { pages: number; figures: SetFigures }; scans: { pages: number; figures: SetFigures } }): SpeedReport {
  return { pages: { mixed: sets.mixed.pages, scans: sets.scans.pages }, mixed: sets.mixed.figures, scans: sets.scans.figures };
}

export interface SetDetail {
  name: 'mixed' | 'scans';
  pages: number;
  ocrPages: number;
  cerPages: number;
  recto: EngineRun;
  tesseract: EngineRun;
  figures: SetFigures;
}

/** The printed table: one row per set, both rates, the ratio, both CERs, and CPU seconds per page. */
export function formatSpeedTable(details: readonly SetDetail[], processes: number): string {
  const perPage = (run: EngineRun, pages: number): string => (run.cpuSeconds === null ? '   n/a' : (run.cpuSeconds / pages).toFixed(2).padStart(6));
  const orderFree = (run: EngineRun): string => `${(100 * microCer(run.texts).orderFreeCer).toFixed(2)}%`.padStart(8);
  const header = 'set     pages (OCR)  recto p/s  tesseract p/s  ratio   recto CER  tess. CER (pages)  CPU s/page recto tess.  order-free CER recto tess.';
  const rows = details.map((d) =>
    [
      d.name.padEnd(7),
      `${String(d.pages).padStart(5)} (${String(d.ocrPages).padStart(3)})`,
      d.figures.recto_pages_per_s.toFixed(3).padStart(10),
      d.figures.tesseract_pages_per_s.toFixed(3).padStart(14),
      `${d.figures.ratio.toFixed(2)}×`.padStart(6),
      `${(100 * d.figures.recto_cer).toFixed(2)}%`.padStart(11),
      `${(100 * d.figures.tesseract_cer).toFixed(2)}%`.padStart(10),
      `(${d.cerPages})`.padStart(8),
      perPage(d.recto, d.pages).padStart(17),
      perPage(d.tesseract, d.pages),
      orderFree(d.recto).padStart(20),
      orderFree(d.tesseract),
    ].join(' '),
  );
  return [
    `Recto bundled engine vs tesseract CLI (${processes} process(es)/worker(s), OMP_THREAD_LIMIT=1), wall-clock pages/s;`,
    'CER against pdftotext layers / truth text of the pages that have one; order-free CER compares sorted words.',
    header,
    ...rows,
  ].join('\n');
}
