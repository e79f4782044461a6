/**
 * The pause before each of bench:ui's inputs: the pace of a person at the keyboard, faster than anyone reviews. A
 * sample then times one input from the screen the person sees, with whatever the previous input started (pages asked
 * for ahead, a save's reply, the side panels' requests) still running if it takes longer than the pause — as it would
 * for them. Without a pause each input would follow the previous one's visible effect at once, and a sample would
 * time the backlog of every earlier input instead (`page_switch_held` keeps that figure for a held key).
 */
import type { Page } from 'playwright-core';

export const userPaceMs = {
  /** Alt+↓ tapped five times a second. */
  pageStep: 200,
  /** Opening the next field's editor a fifth of a second after the last one was saved. */
  fieldEdit: 200,
  /** Typing ten keys a second. */
  keystroke: 100,
  /** Moving the cursor between the text and a table five times a second. */
  cursorMove: 200,
} as const;

/** Waits `ms` before the next input (the driver's clock: the page's own work goes on meanwhile). */
export async function pauseBeforeInput(page: Page, ms: number): Promise<void> {
  if (ms > 0) await page.waitForTimeout(ms);
}
