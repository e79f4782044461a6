/**
 * The rest of a large company's purchase orders, around the real invoices' own POs, so matching is timed against a
 * realistic project: a few thousand other suppliers each with a handful of POs, and for every real supplier many
 * other POs of other items (its catalogue beside what the invoice bills). Deterministic (a seeded generator), so two
 * runs time the same project. Items are made of words, sizes and article numbers as ERP catalogues name them.
 */
import type { PurchaseOrder } from '../../app/matching/index.js';
import { seededRandom } from '../../testing/seededRandom.js';

const NOUNS = ['bolt', 'washer', 'bracket', 'hinge', 'cable', 'relay', 'sensor', 'valve', 'filter', 'pump', 'gasket', 'bearing', 'fuse', 'panel', 'switch', 'adapter', 'hose', 'clamp', 'motor', 'lamp', 'toner', 'paper', 'label', 'pallet', 'carton', 'service hour', 'licence', 'maintenance', 'inspection', 'transport'];
const QUALIFIERS = ['steel', 'brass', 'stainless', 'galvanised', 'PVC', 'nylon', 'aluminium', 'copper', 'heavy duty', 'compact', 'industrial', 'premium', 'standard', 'outdoor', 'black', 'white', 'blue', 'red'];
const SIZES = ['M4', 'M5', 'M6', 'M8', 'M10', 'M12', '10 mm', '16 mm', '25 mm', '1/2"', '3/4"', '230 V', '24 V', 'A4', 'A3', 'XL', '500 ml', '1 l', '5 kg', '20 m'];

export interface DistractorOptions {
  /** PO lines to reach in all, the real POs included. */
  totalLines: number;
  /** Other POs of each real supplier. */
  perRealSupplier: number;
  linesPerPo: number;
  seed: number;
}

export function distractorOrders(realSuppliers: readonly { name: string; currency: string }[], realLines: number, options: DistractorOptions): PurchaseOrder[] {
  const random = seededRandom(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  let serial = 0;
  const order = (supplierName: string, currency: string): PurchaseOrder => {
    const poNumber = `45${String(++serial).padStart(8, '0')}`;
    const lines = Array.from({ length: options.linesPerPo }, (_, i) => ({
      poNumber,
      line: (i + 1) * 10,
      description: `${pick(QUALIFIERS)} ${pick(NOUNS)} ${pick(SIZES)} art. ${Math.floor(random() * 900_000) + 100_000}`,
      itemId: random() < 0.5 ? `A-${Math.floor(random() * 9_000_000) + 1_000_000}` : null,
      quantity: Math.floor(random() * 200) + 1,
      unit: 'pc',
      unitPrice: Math.round(random() * 50_000) / 100,
    }));
    return { poNumber, supplierName, supplierVatId: null, currency, orderDate: '2026-01-05', lines };
  };
  const orders: PurchaseOrder[] = [];
  for (const supplier of realSuppliers) for (let i = 0; i < options.perRealSupplier; i++) orders.push(order(supplier.name, supplier.currency));
  let lines = realLines + orders.length * options.linesPerPo;
  let supplier = 0;
  while (lines < options.totalLines) {
    const name = `Supplier ${++supplier} ${pick(['GmbH', 'Ltd', 'SAS', 'AG', 'BV'])}`;
    const vat = `DE${String(100_000_000 + supplier).padStart(9, '0')}`;
    for (let i = 0; i < 5 && lines < options.totalLines; i++) {
      const po = order(name, pick(['EUR', 'EUR', 'EUR', 'USD', 'GBP']));
      po.supplierVatId = vat;
      po.lines = po.lines.slice(0, Math.min(po.lines.length, options.totalLines - lines));
      orders.push(po);
      lines += po.lines.length;
    }
  }
  return orders;
}
