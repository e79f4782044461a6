/**
 * Everything the invoice review adds to the review screen, in one place so the workspace only places it: the fields
 * panel, the field boxes over the page, the review bar (approve-and-next, reject with a reason, next page needing
 * attention with the count left, shortcuts), the dialogs, and the keys for all of them (shortcuts.ts).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { PageReview } from '../../../../app/contract/methods.js';
import { useClient } from '../../state/contractContext.js';
import { useAttentionQueue } from '../../state/useAttentionQueue.js';
import { countNeedingAttention, stepNeedingAttention, type QueueFilter } from '../../logic/queueWalk.js';
import { useFieldReview } from '../../state/useFieldReview.js';
import type { PageDataCache } from '../../state/pageDataCache.js';
import { FieldBoxesOverlay } from './FieldBoxesOverlay.js';
import { EInvoiceReportPanel } from '../einvoice/EInvoiceReportPanel.js';
import { einvoiceFindings } from '../../../../app/review/einvoiceValidation.js';
import { useEInvoiceValidation } from '../../state/useEInvoiceValidation.js';
import { useDocumentMatch } from '../../state/useDocumentMatch.js';
import { MatchingPanel } from '../matching/MatchingPanel.js';
import { FieldsPanel } from './FieldsPanel.js';
import { RejectDialog } from './RejectDialog.js';
import { ShortcutSheet } from './ShortcutSheet.js';
import { useFieldsWidth } from './useFieldsWidth.js';
import { pageMarks } from '../../logic/pageMarks.js';
import { shortcutOf, type KeyHandlers } from '../../logic/keymap.js';
import { isMac } from '../../state/keyContext.js';
import { useCommandKeys } from '../../state/useCommandKeys.js';
import { approveResolved } from '../approval/approvalGate.js';
import { nextAfterApproval } from '../../logic/approval/nextAfterApproval.js';
import { unionBox } from '../../logic/zoom.js';
import { PaymentFieldsPanel } from '../approval/PaymentFieldsPanel.js';
import { DuplicateLinks } from '../approval/DuplicateLinks.js';
import type { RuleResult } from '../../../../app/invoice/rules/index.js';
import { duplicatesOf, matchWording, useInvoiceMatches } from '../../state/useInvoiceMatches.js';

interface FieldsPaneOptions {
  /** The page being shown or opened (its fields are asked for while its review loads). */
  pageId: string | null;
  review: PageReview | null;
  liveText: string;
  /** The review screen is on screen (keys are ignored otherwise). */
  active: boolean;
  goTo(pageId: string): void;
  /** Refetch the page and the document list after a status change. */
  onStatusChanged(): void;
  /** Pages' reviews and fields, asked for ahead (shared with the workspace). */
  cache: PageDataCache;
  /** The curation view's filter: Alt+N / Alt+P and approve-and-next walk the queue within it. */
  queueFilter: QueueFilter;
}

export function useFieldsPane({ pageId: selectedPageId, review, liveText, active, goTo, onStatusChanged, cache, queueFilter }: FieldsPaneOptions) {
  const client = useClient();
  const fields = useFieldReview(selectedPageId, review, liveText, cache);
  const queue = useAttentionQueue(active);
  const pageId = review?.page.id ?? null;
  const { report: einvoice, preview: previewDraft } = useEInvoiceValidation(pageId, review?.page.documentId ?? null);
  const { match: poMatch, link: linkPoLine } = useDocumentMatch(pageId, review?.page.documentId ?? null, active);
  /** `quiet`: the page viewer zooms to it itself (zoomTo), so the overlay does not scroll its box into view as well. */
  const [selected, setSelected] = useState<{ paths: ReadonlySet<string>; serial: number; quiet?: boolean }>({ paths: new Set(), serial: 0 });
  const [activeRule, setActiveRule] = useState<number | null>(null);
  const [collapsed, setCollapsed] = useState(false);
  const [paymentRules, setPaymentRules] = useState<RuleResult[]>([]);
  // One list of findings: the e-invoice's fatal EN 16931 failures join the payment rules beside the page's, so the
  // pinned summary never says "all hold" above a report with fatal failures (a rule both report is listed once).
  const documentRules = useMemo(() => {
    const pageFailing = new Set(fields.rules.filter((r) => r.status === 'fail').map((r) => r.rule));
    return [...paymentRules, ...einvoiceFindings(einvoice, pageFailing)];
  }, [einvoice, fields.rules, paymentRules]);
  const [dialog, setDialog] = useState<'shortcuts' | 'reject' | null>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const { splitter, gridStyle } = useFieldsWidth(panelRef);
  const matches = useInvoiceMatches(pageId);
  const duplicates = useMemo(
    () => duplicatesOf(matches).map((match) => ({ documentName: match.documentName, pageId: match.pageId, why: matchWording[match.kind] })),
    [matches],
  );

  // A field read on another page of the document: that page opens, then the field's box is selected there.
  const pendingSelection = useRef<string[] | null>(null);
  useEffect(() => {
    // While the next page loads there is no page (null): the pending selection waits for it.
    if (!pageId) return;
    const pending = pendingSelection.current;
    pendingSelection.current = null;
    // Nothing selected stays the same object: a page switch re-renders nothing for it.
    setSelected((previous) => (pending ? { paths: new Set(pending), serial: previous.serial + 1 } : previous.serial === 0 && previous.paths.size === 0 ? previous : { paths: new Set(), serial: 0 }));
    if (!pending) setActiveRule(null);
  }, [pageId]);

  const sources = fields.engine?.sources;
  // Zoom to a field: the page viewer draws its box large and in the middle (a click on a field, or the key).
  const [focusBox, setFocusBox] = useState<{ box: readonly [number, number, number, number]; serial: number } | null>(null);
  const zoomTo = useCallback(
    (path: string | undefined) => {
      const source = path ? sources?.[path] : undefined;
      const box = source && source.pageId === pageId ? unionBox(source.boxes) : null;
      if (box) setFocusBox((previous) => ({ box, serial: (previous?.serial ?? 0) + 1 }));
      return box !== null;
    },
    [pageId, sources],
  );
  const selectPaths = useCallback(
    (paths: string[]) => {
      const elsewhere = paths.map((path) => sources?.[path]?.pageId).find((id) => id !== undefined);
      if (elsewhere && pageId && elsewhere !== pageId && !paths.some((path) => sources?.[path]?.pageId === pageId)) {
        pendingSelection.current = paths;
        goTo(elsewhere);
        return;
      }
      setSelected((previous) => ({ paths: new Set(paths), serial: previous.serial + 1 }));
    },
    [goTo, pageId, sources],
  );
  const selectField = useCallback(
    (path: string) => {
      setActiveRule(null);
      selectPaths([path]);
    },
    [selectPaths],
  );
  const selectedRef = useRef(selected.paths);
  selectedRef.current = selected.paths;
  const zoomToField = useCallback(() => {
    const focused = document.activeElement?.getAttribute('data-field') ?? undefined;
    zoomTo(focused ?? [...selectedRef.current][0]);
  }, [zoomTo]);
  const selectRule = useCallback(
    (index: number) => {
      setActiveRule(index);
      selectPaths(fields.rules[index]?.fields ?? []);
    },
    [fields.rules, selectPaths],
  );
  const nextFailingRule = useCallback(() => {
    setCollapsed(false);
    const failing = fields.rules.flatMap((rule, index) => (rule.status === 'fail' ? [index] : []));
    if (failing.length === 0) return;
    const next = failing.find((index) => index > (activeRule ?? -1)) ?? failing[0]!;
    selectRule(next);
    requestAnimationFrame(() => panelRef.current?.querySelector<HTMLElement>(`.rule.active`)?.scrollIntoView({ block: 'nearest' }));
  }, [activeRule, fields.rules, selectRule]);

  const nextPage = useMemo(() => stepNeedingAttention(queue.items, pageId, 1, queueFilter), [queue.items, pageId, queueFilter]);
  const previousPage = useMemo(() => stepNeedingAttention(queue.items, pageId, -1, queueFilter), [queue.items, pageId, queueFilter]);
  const left = useMemo(() => countNeedingAttention(queue.items, queueFilter), [queue.items, queueFilter]);
  const filtered = queueFilter.signal !== '' || queueFilter.documentId !== '' || queueFilter.statuses.length > 0 || queueFilter.documentOrder !== undefined;
  const goToNextNeedingAttention = useCallback(() => {
    if (nextPage) goTo(nextPage);
  }, [goTo, nextPage]);
  const goToPreviousNeedingAttention = useCallback(() => {
    if (previousPage) goTo(previousPage);
  }, [goTo, previousPage]);

  const setStatus = useCallback(
    async (status: 'approved' | 'rejected', reason?: string) => {
      if (!pageId) return;
      let target: string | null;
      if (status === 'rejected' && reason) {
        target = stepNeedingAttention(queue.items, pageId, 1, queueFilter);
        await client.call('pages.reject', { pageId, reason }).catch(() => undefined);
      } else {
        const approval = await approveResolved(client, pageId, 'unit');
        if (approval.result === 'cancelled' || approval.result === 'failed') return;
        // The invoice is approved from any page: next is another invoice, not one of its own pages.
        target = nextAfterApproval(queue.items, pageId, approval.covered === 'document' ? (review?.page.documentId ?? null) : null, queueFilter);
      }
      onStatusChanged();
      void queue.reload();
      if (target) goTo(target);
    },
    [client, goTo, onStatusChanged, pageId, queue, queueFilter, review],
  );

  const focusFields = useCallback(() => {
    setCollapsed(false);
    requestAnimationFrame(() => panelRef.current?.querySelector<HTMLElement>('.field-value')?.focus());
  }, []);

  const extraction = review?.extraction ?? null;
  const overlay: ReactNode =
    extraction && fields.engine ? (
      <FieldBoxesOverlay
        sources={Object.fromEntries(Object.entries(fields.engine.sources).filter(([, source]) => source.pageId === pageId))}
        pageWidth={extraction.page.width}
        pageHeight={extraction.page.height}
        selected={selected.paths}
        revealSerial={selected.quiet ? 0 : selected.serial}
        onSelect={(path) => {
          setCollapsed(false);
          selectField(path);
          requestAnimationFrame(() => panelRef.current?.querySelector<HTMLElement>(`[data-field="${CSS.escape(path)}"]`)?.scrollIntoView({ block: 'nearest' }));
        }}
      />
    ) : null;

  const panel: ReactNode = (
    <div ref={panelRef} className="fields-column">
      {!collapsed && splitter}
      <div className="fields-stack">
        <FieldsPanel
          fields={fields}
          selected={selected.paths}
          activeRule={activeRule}
          read={review?.extraction != null}
          collapsed={collapsed}
          onToggle={() => setCollapsed((value) => !value)}
          onSelectField={(path) => {
            if (!zoomTo(path)) return selectField(path);
            setActiveRule(null);
            setSelected((previous) => ({ paths: new Set([path]), serial: previous.serial + 1, quiet: true }));
          }}
          onFocusField={(path) => {
            if (!sources?.[path] || sources[path]!.pageId === pageId) setSelected((previous) => ({ paths: new Set([path]), serial: previous.serial + 1 }));
          }}
          onSelectRule={selectRule}
          duplicates={duplicates}
          onOpenPage={goTo}
          onDraft={previewDraft}
          paymentRules={documentRules}
          below={
            <>
              {einvoice && <EInvoiceReportPanel report={einvoice} onSelectField={selectField} />}
              {poMatch && <MatchingPanel match={poMatch} onLink={(line, target) => void linkPoLine(line, target)} />}
              <DuplicateLinks matches={matches} onOpen={goTo} />
              <PaymentFieldsPanel pageId={pageId} onRules={setPaymentRules} />
            </>
          }
        />
      </div>
    </div>
  );

  const reviewBar: ReactNode = review ? (
    <div className="review-bar" role="toolbar" aria-label="Review">
      <button className="button primary" onClick={() => void setStatus('approved')} title={`Approve and open the next page needing attention (${shortcutOf('approve-next', isMac)})`} data-testid="approve-next">
        Approve ▸
      </button>
      <button className="button" onClick={() => setDialog('reject')} title={`Reject with a reason (${shortcutOf('reject', isMac)})`}>
        Reject…
      </button>
      <button className="button subtle" onClick={goToNextNeedingAttention} disabled={!nextPage} title={`Next page needing attention (${shortcutOf('next-attention', isMac)})`} data-testid="next-attention">
        Next needing attention ▸
      </button>
      <span className="attention-left" data-testid="attention-left" title={queueFilter.documentOrder ? 'Among the invoices the Invoices view shows, in its order' : filtered ? 'Within the filter chosen in Curation' : undefined}>
        {queueFilter.documentOrder
          ? `${left} ${left === 1 ? 'invoice needs' : 'invoices need'} attention (Invoices view)`
          : `${left} ${left === 1 ? 'page needs' : 'pages need'} attention${filtered ? ' (filtered)' : ''}`}
      </span>
      <span className="toolbar-spacer" />
      <button className="button subtle" onClick={() => setDialog('shortcuts')} title={`Keyboard shortcuts (${shortcutOf('shortcuts', isMac)})`}>
        Shortcuts
      </button>
    </div>
  ) : null;

  const dialogs: ReactNode =
    dialog === 'shortcuts' ? (
      <ShortcutSheet onClose={() => setDialog(null)} />
    ) : dialog === 'reject' ? (
      <RejectDialog
        onCancel={() => setDialog(null)}
        onReject={(reason) => {
          setDialog(null);
          void setStatus('rejected', reason);
        }}
      />
    ) : null;

  const marks = useMemo(() => pageMarks(queue.items), [queue.items]);
  // The actions of the keys, also the command palette's (one keymap: the palette prints their keys). While a dialog
  // is open its keys are its own.
  const commands = {
    'approve-next': () => void setStatus('approved'),
    reject: () => setDialog('reject'),
    'next-attention': goToNextNeedingAttention,
    'previous-attention': goToPreviousNeedingAttention,
    'next-failing-rule': nextFailingRule,
    'zoom-to-field': zoomToField,
    'focus-fields': focusFields,
    'undo-field': () => void fields.undo(),
    shortcuts: () => setDialog('shortcuts'),
  } satisfies KeyHandlers<'fieldsPane'>;
  useCommandKeys('fieldsPane', commands, active && dialog === null);
  return { panel, overlay, reviewBar, dialogs, focusBox, collapsed, gridStyle: collapsed ? {} : gridStyle, fields, nextNeedingAttention: nextPage, pageMarks: marks, commands };
}
