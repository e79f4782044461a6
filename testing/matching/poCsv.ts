/** PO.csv and GR.csv text for generated master data (RFC 4180, comma, decimal point), as a company's ERP writes them. */
import type { PurchaseOrder } from '../../app/matching/index.js';

const cell = (v: string | number | null): string => {
  if (v === null) return '';
  const text = String(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export function purchaseOrdersCsv(orders: readonly PurchaseOrder[]): string {
  let out = 'po_number,supplier_name,supplier_vat_id,line,description,item_id,quantity,unit,unit_price,currency,order_date\r\n';
  for (const po of orders) {
    for (const l of po.lines) {
      out += [po.poNumber, po.supplierName, po.supplierVatId, l.line, l.description, l.itemId, l.quantity, l.unit, l.unitPrice, po.currency, po.orderDate].map(cell).join(',') + '\r\n';
    }
  }
  return out;
}

export function goodsReceiptsCsv(receipts: readonly { poNumber: string; line: number; quantity: number; on: string }[]): string {
  return 'po_number,line,quantity_received,received_on\r\n' + receipts.map((r) => [r.poNumber, r.line, r.quantity, r.on].map(cell).join(',') + '\r\n').join('');
}
