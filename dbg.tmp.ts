import { readFileSync, readdirSync } from 'node:fs';
import { extractInvoiceFields, toPlainFields, wordsFromLayoutText } from './app/invoice/index.js';
const dir = '/work/shared/testdata/invoice2data/groundtruth_pdftotext/';
for (const f of readdirSync(dir)) {
  const text = readFileSync(dir + f, 'utf8');
  const fields = toPlainFields(extractInvoiceFields({ words: wordsFromLayoutText(text) }));
  const gt = JSON.parse(readFileSync('/work/shared/testdata/invoice2data/tests/compare/' + f.replace('.layout.txt', '.json'), 'utf8'))[0];
  console.log(f, JSON.stringify({ ...fields, lines: fields.lines.length }), '\n   GT', JSON.stringify({ n: gt.invoice_number, d: gt.date, due: gt.date_due, sub: gt.amount_untaxed, tax: gt.amount_tax, tot: gt.amount, cur: gt.currency, iss: gt.issuer, lines: gt.lines?.length }));
}
