/**
 * "Export invoices…": the invoices export (docs/invoices-export.md) from the UI — a folder (absolute path), UBL or
 * CII, optionally XRechnung, optionally every approved invoice again (else only those this channel has not sent);
 * the answer lists how many invoices and e-invoices were written and every approved
 * invoice left without an e-invoice with the BTs it lacks. A refused folder (links, foreign content) is said as such.
 */
import { useEffect, useState } from 'react';
import { useClient } from '../../state/contractContext.js';

type Outcome = { text: string; failed: boolean } | null;

/** `openAsked`: the command palette asked for the dialog; it opens and says so with `onOpened`, which clears the ask. */
export function InvoicesExportButton({ openAsked = false, onOpened }: { openAsked?: boolean; onOpened?(): void }) {
  const client = useClient();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!openAsked) return;
    setOpen(true);
    onOpened?.();
  }, [openAsked, onOpened]);
  const [outDir, setOutDir] = useState('');
  const [syntax, setSyntax] = useState<'ubl' | 'cii'>('ubl');
  const [xrechnung, setXrechnung] = useState(false);
  const [allApproved, setAllApproved] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const run = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const r = await client.call('invoices.export', { outDir: outDir.trim(), syntax, xrechnung, allApproved });
      const left = r.notWritten.map((n) => `${n.file}: lacks ${n.missing.join(' ')}`).join('\n');
      const head =
        r.invoices === 0
          ? `Nothing new to export (${r.alreadyExported} approved invoice(s) exported before on this channel)`
          : `${r.invoices} invoice(s), ${r.einvoicesWritten} e-invoice(s) written to ${r.outDir}` +
            (r.allApproved ? ` — every approved invoice again, ${r.alreadyExported} exported before` : r.alreadyExported > 0 ? `; ${r.alreadyExported} exported before, not again` : '') +
            (r.corrections > 0 ? `; ${r.corrections} correction(s) of an earlier export` : '');
      setOutcome({ text: `${head}${left ? `\nNo e-invoice for:\n${left}` : ''}`, failed: false });
    } catch (error) {
      setOutcome({ text: error instanceof Error ? error.message : String(error), failed: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button className="button small" data-testid="invoices-export-open" onClick={() => setOpen(true)}>
        Export invoices…
      </button>
      {open && (
        <div className="dialog-backdrop" role="presentation" onClick={() => setOpen(false)}>
          <form
            className="dialog reject-dialog"
            role="dialog"
            aria-modal="true"
            aria-label="Export invoices"
            data-testid="invoices-export-dialog"
            onClick={(event) => event.stopPropagation()}
            onSubmit={(event) => {
              event.preventDefault();
              if (outDir.trim()) void run();
            }}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setOpen(false);
            }}
          >
            <h2>Export invoices</h2>
            <label>
              Folder (absolute path; new, empty, or an earlier invoices export)
              <input className="text-input" value={outDir} onChange={(event) => setOutDir(event.target.value)} data-testid="invoices-export-out" />
            </label>
            <label>
              E-invoice syntax
              <select value={syntax} onChange={(event) => setSyntax(event.target.value as 'ubl' | 'cii')}>
                <option value="ubl">UBL 2.1</option>
                <option value="cii">UN/CEFACT CII</option>
              </select>
            </label>
            <label>
              <span>
                <input type="checkbox" checked={xrechnung} onChange={(event) => setXrechnung(event.target.checked)} /> XRechnung where the required fields exist
              </span>
            </label>
            <label>
              <span>
                <input type="checkbox" checked={allApproved} onChange={(event) => setAllApproved(event.target.checked)} data-testid="invoices-export-all" /> Every approved
                invoice again (else only those not yet exported in this syntax)
              </span>
            </label>
            {outcome && <pre className={outcome.failed ? 'inline-error' : 'muted'} data-testid="invoices-export-result">{outcome.text}</pre>}
            <div className="dialog-actions">
              <button type="button" className="button" onClick={() => setOpen(false)}>
                Close
              </button>
              <button type="submit" className="button primary" disabled={busy || !outDir.trim()}>
                {busy ? 'Exporting…' : 'Export'}
              </button>
            </div>
          </form>
        </div>
      )}
    </>
  );
}
