/**
 * Importing the company's master data from the app (docs/po-matching.md): purchase orders, goods receipts and the
 * vendor master as CSV files, chosen or dropped (a dropped file goes to the slot its header names), sent by value
 * (`masterData.import`). The reply says per file the rows read and the decimal mark used, and per set what was
 * added, changed and removed; a refusal names the file and line, and nothing was imported.
 */
import { useState, type DragEvent } from 'react';
import type { MasterDataImportSummaryWire } from '../../../../app/contract/matching.js';
import { useClient } from '../../state/contractContext.js';
import { readFileAsBase64 } from '../../logic/fileImport.js';

type Slot = 'purchaseOrders' | 'goodsReceipts' | 'suppliers';
const slots: { slot: Slot; label: string; marker: string }[] = [
  { slot: 'purchaseOrders', label: 'Purchase orders (PO.csv)', marker: 'unit_price' },
  { slot: 'goodsReceipts', label: 'Goods receipts (GR.csv)', marker: 'quantity_received' },
  { slot: 'suppliers', label: 'Vendor master (SUP.csv)', marker: 'iban' },
];

/** The slot a dropped file belongs to, by a column only its header has; null where none. */
async function slotOf(file: File): Promise<Slot | null> {
  const head = (await file.slice(0, 4096).text()).split(/\r?\n/)[0]?.toLowerCase() ?? '';
  return slots.find((s) => head.includes(s.marker))?.slot ?? null;
}

const diffText = (d: { added: number; changed: number; removed: number; unchanged: number } | undefined) => (d ? `${d.added} added, ${d.changed} changed, ${d.removed} removed` : null);

export function MasterDataImport() {
  const client = useClient();
  const [files, setFiles] = useState<Partial<Record<Slot, File>>>({});
  const [decimal, setDecimal] = useState<'' | 'point' | 'comma'>('');
  const [result, setResult] = useState<MasterDataImportSummaryWire | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onDrop = async (event: DragEvent) => {
    event.preventDefault();
    const dropped = [...event.dataTransfer.files];
    const next = { ...files };
    for (const file of dropped) {
      const slot = await slotOf(file);
      if (slot) next[slot] = file;
      else setError(`${file.name}: its header names none of the master-data files' columns`);
    }
    setFiles(next);
  };

  const run = async () => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const request: Record<string, unknown> = decimal ? { decimal } : {};
      for (const { slot } of slots) {
        const file = files[slot];
        if (file) request[slot] = { name: file.name, dataBase64: await readFileAsBase64(file) };
      }
      setResult(await client.call('masterData.import', request));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="master-data" data-testid="master-data-import" onDragOver={(e) => e.preventDefault()} onDrop={(e) => void onDrop(e)}>
      <h3>Master data for three-way matching</h3>
      <p className="suppliers-muted">Choose or drop the CSV files; each replaces what was imported before, row by row.</p>
      {slots.map(({ slot, label }) => (
        <label key={slot} className="master-data-file">
          <span>{label}</span>
          <input type="file" accept=".csv,text/csv" onChange={(e) => setFiles({ ...files, [slot]: e.target.files?.[0] })} data-slot={slot} />
          {files[slot] && <span className="suppliers-muted">{files[slot]!.name}</span>}
        </label>
      ))}
      <label className="master-data-file">
        <span>Decimal mark</span>
        <select value={decimal} onChange={(e) => setDecimal(e.target.value as typeof decimal)}>
          <option value="">detect per file</option>
          <option value="point">point (2.50)</option>
          <option value="comma">comma (2,50)</option>
        </select>
      </label>
      <button className="button primary" disabled={busy || Object.values(files).every((f) => !f)} onClick={() => void run()}>
        {busy ? 'Importing…' : 'Import'}
      </button>
      {error && <p role="alert">{error}</p>}
      {result && (
        <ul className="master-data-result" data-testid="master-data-result">
          {result.files.map((f) => (
            <li key={f.file}>
              {f.file}: {f.rows} rows, decimal {f.decimal} ({f.decimalDetected ? 'detected' : 'declared'})
            </li>
          ))}
          {(
            [
              ['Purchase orders', result.report.purchaseOrders],
              ['PO lines', result.report.poLines],
              ['Goods receipts', result.report.goodsReceipts],
              ['Supplier accounts', result.report.supplierAccounts],
            ] as const
          ).map(([what, d]) => diffText(d) && <li key={what}>{what}: {diffText(d)}</li>)}
        </ul>
      )}
    </section>
  );
}
