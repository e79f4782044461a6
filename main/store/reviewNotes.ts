/**
 * Review notes (table review_notes, migration 005): why an analyst rejected a page, with who and when, written in the
 * same transaction as the page's review status and its review event (the status history merges and exports carry).
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { PageSummary } from '../../app/model/page.js';
import type { DocumentsRepository } from './documents.js';
import type { ReviewEventsRepository } from './reviewEvents.js';

export class ReviewNotesRepository {
  constructor(
    private readonly db: Database.Database,
    private readonly documents: DocumentsRepository,
    private readonly reviewEvents: ReviewEventsRepository,
  ) {}

  /** Rejects the page and keeps why — together or not at all. */
  reject(pageId: string, reason: string, author: string): PageSummary {
    return this.db.transaction(() => {
      const page = this.documents.setReviewStatus(pageId, 'rejected');
      const at = new Date().toISOString();
      this.db
        .prepare('INSERT INTO review_notes (id, page_id, status, reason, author, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(randomUUID(), pageId, 'rejected', reason, author, at);
      this.reviewEvents.record({ pageId, status: 'rejected', exceptions: [], reason, reviewer: author, at });
      return page;
    })();
  }

  /** The latest rejection reason of a page, null when none was given. */
  rejectionReason(pageId: string): { reason: string; author: string; createdAt: string } | null {
    const row = this.db
      .prepare('SELECT reason, author, created_at FROM review_notes WHERE page_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1')
      .get(pageId) as { reason: string; author: string; created_at: string } | undefined;
    return row ? { reason: row.reason, author: row.author, createdAt: row.created_at } : null;
  }
}
