/**
 * What bench:ui measures, each a named function of the open review screen returning samples in milliseconds, timed
 * inside the page (performance.now() around a real input event until the DOM shows its effect). New measures (the
 * table grid's open time, …) are added to `uiMeasures`; the runner prints and writes every one as `<name>_p95_ms`.
 */
import type { Page } from 'playwright-core';
import { gridOpen } from './gridOpenMeasure.js';
import { pauseBeforeInput, userPaceMs } from './userPace.js';

export interface UiMeasure {
  /** JSON key stem: `${name}_p95_ms`. */
  name: string;
  /** What one sample is, for the table. */
  label: string;
  /** Target p95 in ms (null: reported only). */
  targetMs: number | null;
  /** Prepares the page (once) and returns `samples` timings. */
  run(page: Page, samples: number): Promise<number[]>;
}

/** Polls every millisecond until `done()` (in the page); the time since `start` or -1 after 10 s. */
const waitInPage = `async (start, done) => { for (;;) { if (done()) return performance.now() - start; if (performance.now() - start > 10000) return -1; await new Promise((r) => setTimeout(r, 1)); } }`;

/**
 * Page switch: Alt+↓ until the next page is shown — its image loaded in the viewer, its text in the editor and its
 * invoice number in the fields panel. `paceMs` before each Alt+↓ (userPace.ts); 0 is a held key: the next Alt+↓ as
 * soon as the page shows, while the pages asked for ahead may still be on their way.
 */
function pageSwitchAt(name: string, label: string, targetMs: number | null, paceMs: number): UiMeasure {
  return {
    name,
    label,
    targetMs,
    run: (page, samples) => runPageSwitches(page, samples, paceMs),
  };
}

async function runPageSwitches(page: Page, samples: number, paceMs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    await pauseBeforeInput(page, paceMs);
    const ms = await page.evaluate(
      async ({ wait }) => {
        const until = eval(wait) as (start: number, done: () => boolean) => Promise<number>;
        const editor = (window as unknown as { __rectoEditor: { getValue(): string } }).__rectoEditor;
        const before = editor.getValue().match(/INV-\d+/)?.[0] ?? '';
        const imageBefore = document.querySelector<HTMLImageElement>('[data-testid="page-image"]')?.src ?? '';
        const start = performance.now();
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', altKey: true, bubbles: true, cancelable: true }));
        return until(start, () => {
          const now = editor.getValue().match(/INV-\d+/)?.[0] ?? '';
          const field = document.querySelector('.fields-panel [data-field="invoice_number"]')?.textContent ?? '';
          const image = document.querySelector<HTMLImageElement>('[data-testid="page-image"]');
          const imageShown = image !== null && image.src !== imageBefore && image.complete && image.naturalWidth > 0;
          return now !== before && now !== '' && field.includes(now) && imageShown;
        });
      },
      { wait: waitInPage },
    );
    times.push(ms);
  }
  return times;
}

const pageSwitch = pageSwitchAt('page_switch', 'page switch (Alt+↓ → image, text and fields shown)', 100, userPaceMs.pageStep);

/** Reported without a target: a held key outruns the pages asked for ahead on busy cores (docs/benchmarks.md). */
const pageSwitchHeld = pageSwitchAt('page_switch_held', 'page switch, key held (next Alt+↓ as soon as shown)', null, 0);

/**
 * Page switch until painted: as `page_switch`, and then until the browser has painted the new page image (its Element
 * Timing entry's `renderTime`, the frame that first showed it). An image counts as loaded once its file is in, but it
 * is decoded for the size it is drawn at when the frame is rastered — so the frame that shows the new page (its text
 * too, unless the image decodes asynchronously) can follow the loaded image by a decode of the whole page.
 * Not in bench:ui's table: asked for by name (`compareRenderers.ts --measures`, `cpuByProcess.ts --measure`), as one
 * run at +2 busy threads once waited 10 s for an entry that never came.
 */
const pageSwitchPainted: UiMeasure = {
  name: 'page_switch_painted',
  label: 'page switch until painted (Alt+↓ → the new image on screen)',
  targetMs: 100,
  async run(page, samples) {
    // The attribute on the viewer's <img> (React keeps that element and changes its src) and an observer of its paints.
    await page.evaluate(`(() => {
      if (window.__rectoImagePaints) return;
      window.__rectoImagePaints = [];
      document.querySelector('[data-testid="page-image"]').setAttribute('elementtiming', 'page-image');
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__rectoImagePaints.push({ url: e.url, at: e.renderTime || e.loadTime }); }).observe({ type: 'element' });
    })()`);
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      await pauseBeforeInput(page, userPaceMs.pageStep);
      const ms = await page.evaluate(
        async ({ wait }) => {
          const until = eval(wait) as (start: number, done: () => boolean) => Promise<number>;
          const paints = (window as unknown as { __rectoImagePaints: { url: string; at: number }[] }).__rectoImagePaints;
          const editor = (window as unknown as { __rectoEditor: { getValue(): string } }).__rectoEditor;
          const before = editor.getValue().match(/INV-\d+/)?.[0] ?? '';
          const image = document.querySelector<HTMLImageElement>('[data-testid="page-image"]')!;
          const imageBefore = image.src;
          const start = performance.now();
          window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', altKey: true, bubbles: true, cancelable: true }));
          const shown = await until(start, () => {
            const now = editor.getValue().match(/INV-\d+/)?.[0] ?? '';
            const field = document.querySelector('.fields-panel [data-field="invoice_number"]')?.textContent ?? '';
            return now !== before && now !== '' && field.includes(now) && image.src !== imageBefore;
          });
          if (shown < 0) return -1;
          const painted = await until(start, () => paints.some((p) => p.url === image.src && p.at > start));
          if (painted < 0) return -1;
          return Math.max(shown, paints.find((p) => p.url === image.src && p.at > start)!.at - start);
        },
        { wait: waitInPage },
      );
      times.push(ms);
    }
    return times;
  },
};

/** Field edit → rules: Enter on an edited line amount until BR-CO-10 shows the new status (fail, then pass again). */
const fieldEditToRules: UiMeasure = {
  name: 'field_edit_to_rules',
  label: 'field edit → rule results updated',
  targetMs: 50,
  async run(page, samples) {
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      await pauseBeforeInput(page, userPaceMs.fieldEdit);
      const ms = await page.evaluate(
        async ({ wait, broken }) => {
          const until = eval(wait) as (start: number, done: () => boolean) => Promise<number>;
          const button = document.querySelector<HTMLElement>('.fields-panel [data-field="lines.0.amount"]')!;
          button.focus();
          button.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
          await until(performance.now(), () => document.querySelector('[data-field-input="lines.0.amount"]') !== null);
          const input = document.querySelector<HTMLInputElement>('[data-field-input="lines.0.amount"]')!;
          // Each sample stands alone: the right amount is quantity × unit price as the panel shows them.
          // (No named helper functions inside evaluate: tsx would wrap them in a __name() the page does not have.)
          const quantity = Number((document.querySelector('.fields-panel [data-field="lines.0.quantity"]')?.textContent ?? '').replace(/[^\d.]/g, ''));
          const unitPrice = Number((document.querySelector('.fields-panel [data-field="lines.0.unit_price"]')?.textContent ?? '').replace(/[^\d.]/g, ''));
          const right = quantity * unitPrice;
          const next = broken ? right + 10 : right;
          Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, next.toFixed(2));
          input.dispatchEvent(new Event('input', { bubbles: true }));
          await new Promise((r) => setTimeout(r, 0));
          const want = broken ? 'fail' : 'pass';
          const start = performance.now();
          input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
          return until(start, () => document.querySelector('.rules [data-rule="BR-CO-10"]')?.getAttribute('data-status') === want);
        },
        { wait: waitInPage, broken: i % 2 === 0 },
      );
      times.push(ms);
    }
    return times;
  },
};

/** Keystroke → preview: one character typed into a table cell (a Monaco edit) until the Preview shows it. */
const keystrokePreview: UiMeasure = {
  name: 'keystroke_preview',
  label: 'keystroke → preview updated (page with 5 tables)',
  targetMs: 50,
  async run(page, samples) {
    await page.getByTestId('preview-tab').click();
    await page.getByTestId('preview').waitFor();
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      await pauseBeforeInput(page, userPaceMs.keystroke);
      const ms = await page.evaluate(
        async ({ wait, count }) => {
          const until = eval(wait) as (start: number, done: () => boolean) => Promise<number>;
          const editor = (window as unknown as {
            __rectoEditor: { getModel(): { getPositionAt(offset: number): { lineNumber: number; column: number } }; getValue(): string; executeEdits(source: string, edits: unknown[]): void };
          }).__rectoEditor;
          const text = editor.getValue();
          const at = text.indexOf('Consulting hours') + 'Consulting hours'.length;
          const p = editor.getModel().getPositionAt(at);
          // One more k than the cell has now (earlier samples and the warm-up typed some already).
          const typed = /^k*/.exec(text.slice(at))![0].length;
          const expected = `Consulting hours${'k'.repeat(typed + count)}<`.slice(0, -1);
          const preview = document.querySelector('[data-testid="preview"]')!;
          const start = performance.now();
          editor.executeEdits('bench', [{ range: { startLineNumber: p.lineNumber, startColumn: p.column, endLineNumber: p.lineNumber, endColumn: p.column }, text: 'k' }]);
          return until(start, () => (preview.textContent ?? '').includes(expected));
        },
        { wait: waitInPage, count: 1 },
      );
      times.push(ms);
    }
    return times;
  },
};

/** Baseline in the same run: one `pages.getReview` round trip from the page (what any page switch has to wait for). */
export const reviewRoundTrip: UiMeasure = {
  name: 'get_review_rpc',
  label: 'baseline: pages.getReview round trip',
  targetMs: null,
  async run(page, samples) {
    return page.evaluate(async (n) => {
      const ids = [...document.querySelectorAll('[data-testid="page-item"]')].map((e) => e.getAttribute('data-page-id'));
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const start = performance.now();
        const response = await fetch('/api/rpc/pages.getReview', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-recto-token': sessionStorage.getItem('recto.token') ?? '' },
          body: JSON.stringify({ pageId: ids[i % ids.length] }),
        });
        await response.json();
        times.push(performance.now() - start);
      }
      return times;
    }, samples);
  },
};

export const uiMeasures: UiMeasure[] = [pageSwitch, pageSwitchHeld, fieldEditToRules, keystrokePreview, gridOpen];

/** Every measure, those asked for by name only included (`--measure` / `--measures` of the tools beside bench:ui). */
export const allMeasures: UiMeasure[] = [...uiMeasures, pageSwitchPainted];
