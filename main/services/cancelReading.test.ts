/**
 * Cancelling a job while tesseract is reading a scan: the app keeps running, the page goes back to waiting, and it
 * can be read afterwards. (Terminating a busy tesseract.js worker used to crash the whole process.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobProgress } from '../../app/contract/events.js';
import { createRectoSession } from '../composition/createRectoSession.js';
import { packageRoot } from '../util/packageRoot.js';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'recto-cancel-'));
const session = createRectoSession({ paths: { dataDir: path.join(home, 'data'), cacheDir: path.join(home, 'cache') } });
afterAll(async () => {
  await session.dispose();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('cancelling a reading job', () => {
  it('stops at once during OCR and the page can be read later', async () => {
    await session.createProject(path.join(home, 'p.recto'));
    const scan = path.join(packageRoot(), 'resources', 'samples', 'northwind-invoice-scan.png');
    const progress: JobProgress[] = [];
    let cancelled = false;
    session.bus.subscribe((envelope) => {
      if (envelope.event === 'job.progress') progress.push(envelope.payload as JobProgress);
      if (envelope.event === 'page.updated' && !cancelled) {
        const page = session.store.documents.getPage((envelope.payload as { pageId: string }).pageId);
        if (page.status === 'reading') {
          cancelled = true;
          // Give tesseract a moment to be in the middle of the page.
          setTimeout(() => session.queue.cancel(progress[0]!.jobId), 300);
        }
      }
    });
    const result = await session.importFiles([{ filePath: scan }], 'bundled');
    await session.queue.idle();
    const pageId = result.imported[0]!.pages[0]!.id;
    expect(progress.at(-1)?.state).toBe('cancelled');
    expect(session.store.documents.getPage(pageId).status).toBe('pending');

    session.reread(pageId, 'bundled');
    await session.queue.idle();
    expect(session.store.documents.getPage(pageId).status).toBe('done');
    expect(session.store.readings.latestExtraction(pageId)?.markdown).toContain('Northwind');
  });
});
