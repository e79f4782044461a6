/**
 * The export dialog's fields and the `corpus.export` request they make. The folder is typed (the desktop app can
 * also fill it from its folder picker, dialog.chooseExportFolder); a date "since" means from that day's start in UTC.
 */
import type { RequestOf } from '../../../../app/contract/methods.js';
import type { ReviewStatus } from '../../../../app/model/page.js';

export interface ExportForm {
  outDir: string;
  /** '' = every page. */
  status: ReviewStatus | '';
  /** YYYY-MM-DD from a date field; '' = no limit. */
  since: string;
  images: 'png' | 'none';
}

/** A folder next to the project file, named after it: /work/invoices.recto → /work/invoices-corpus. */
export function suggestedOutDir(projectPath: string | null): string {
  if (!projectPath) return '';
  const cut = Math.max(projectPath.lastIndexOf('/'), projectPath.lastIndexOf('\\'));
  const folder = cut >= 0 ? projectPath.slice(0, cut + 1) : '';
  const name = projectPath.slice(cut + 1).replace(/\.recto$/i, '') || 'project';
  return `${folder}${name}-corpus`;
}

/** The request, or the reason the form cannot be sent yet. */
export function toExportRequest(form: ExportForm): { request: RequestOf<'corpus.export'> } | { problem: string } {
  const outDir = form.outDir.trim();
  if (!outDir) return { problem: 'Choose the folder to export into.' };
  const request: RequestOf<'corpus.export'> = { outDir, images: form.images };
  if (form.status) request.status = form.status;
  if (form.since) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(form.since) || Number.isNaN(Date.parse(`${form.since}T00:00:00Z`))) {
      return { problem: `"${form.since}" is not a date.` };
    }
    request.since = `${form.since}T00:00:00Z`;
  }
  return { request };
}
