import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSemanticInvoice, validateSemanticInvoice, type RuleFailure } from '../en16931/index.js';
import { FIELD_TERMS, applyFieldEdit, einvoiceFindings, groupFailures, revalidateTerms, type ValidatedField } from './einvoiceValidation.js';

const failure = (id: string, flag: RuleFailure['flag'], bt: string[]): RuleFailure => ({ id, flag, message: id, bt });

describe('groupFailures', () => {
  it('groups by the page field a failure concerns, fatal groups first', () => {
    const groups = groupFailures([
      failure('BR-CL-10', 'warning', ['BT-29']),
      failure('BR-CO-16', 'fatal', ['BT-115', 'BT-112']),
      failure('BR-DEC-18', 'warning', ['BT-115']),
      failure('BR-01', 'fatal', ['BT-24']),
    ]);
    expect(groups.map((g) => [g.term, g.field, g.fatal, g.failures.map((f) => f.id)])).toEqual([
      ['BT-24', null, 1, ['BR-01']],
      ['BT-115', 'amount_due', 1, ['BR-CO-16', 'BR-DEC-18']],
      ['BT-29', null, 0, ['BR-CL-10']],
    ]);
  });
});

describe('schema findings in the review', () => {
  const schemaError = { id: 'XSD', flag: 'fatal' as const, message: "Element 'ram:Surprise': This element is not expected.", bt: [], layer: 'schema' as const, xmlLine: 5 };
  it('are one group of their own, first among the fatal ones, on no field', () => {
    const groups = groupFailures([failure('BR-CO-16', 'fatal', ['BT-115']), schemaError, { ...schemaError, xmlLine: 9 }]);
    expect(groups.map((g) => [g.term, g.field, g.fatal, g.failures.length])).toEqual([
      ['XML schema', null, 2, 2],
      ['BT-115', 'amount_due', 1, 1],
    ]);
  });
  it('are one finding titled XML schema with the line, on no field', () => {
    expect(einvoiceFindings({ failed: [schemaError, { ...schemaError, xmlLine: 9 }] })).toEqual([
      { rule: 'XSD', title: 'XML schema', status: 'fail', message: "XML line 5: Element 'ram:Surprise': This element is not expected.", fields: [] },
    ]);
  });
});

describe('einvoiceFindings', () => {
  it('the fatal failures once per rule, on their page field; warnings and rules the page already reports left out', () => {
    const failed = [failure('BR-CO-16', 'fatal', ['BT-115']), failure('BR-CO-16', 'fatal', ['BT-115']), failure('BR-CO-10', 'fatal', ['BT-106']), failure('BR-CL-10', 'warning', ['BT-29']), failure('BR-01', 'fatal', ['BT-24'])];
    expect(einvoiceFindings({ failed }, new Set(['BR-CO-10'])).map((f) => [f.rule, f.status, f.fields])).toEqual([
      ['BR-CO-16', 'fail', ['amount_due']],
      ['BR-01', 'fail', []],
    ]);
    expect(einvoiceFindings(null)).toEqual([]);
  });
  it('the catalogue gives the business terms (no list of its own)', () => {
    expect(FIELD_TERMS.total).toBe('BT-112');
    expect(FIELD_TERMS.amount_due).toBe('BT-115');
  });
});

// Every testdata e-invoice, every field edit: re-running only the rules that read the edited term must give the same
// report as validating the edited invoice from scratch (which is what makes the selective re-run safe).
const ROOT = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'testdata');
const FOLDERS = ['en16931/examples/ubl', 'en16931/examples/cii', 'einvoices/xml/ubl', 'einvoices/xml/cii', 'einvoice-corpus/xml/ubl', 'einvoice-corpus/xml/cii'];
const available = existsSync(path.join(ROOT, 'en16931', 'examples'));
if (!available) console.log('SKIPPED: ../shared/testdata (EN 16931 e-invoices) is absent: selective re-validation check');

const EDITS: [ValidatedField, string | number | null][] = [
  ['amount_due', 1.01],
  ['total', 99999.99],
  ['subtotal', null],
  ['tax', 12.345],
  ['line_total', 0],
  ['allowances', 5],
  ['charges', 3.5],
  ['prepaid', 1000000],
  ['invoice_number', ''],
  ['issue_date', '2024-02-30'],
  ['currency', 'XYZ'],
  ['seller', ''],
  ['buyer', 'Someone Else'],
];

describe.runIf(available)('revalidateTerms on the testdata e-invoices', () => {
  it('equals a full validation of the edited invoice, for every field edit', () => {
    let compared = 0;
    let changed = 0;
    for (const folder of FOLDERS) {
      for (const name of readdirSync(path.join(ROOT, folder)).filter((n) => n.endsWith('.xml') && !n.startsWith('FT G2G'))) {
        const inv = readSemanticInvoice(readFileSync(path.join(ROOT, folder, name), 'utf8'));
        const before = validateSemanticInvoice(inv, { source: 'xml' });
        for (const [field, value] of EDITS) {
          const edited = applyFieldEdit(inv, field, value);
          const full = validateSemanticInvoice(edited, { source: 'xml' });
          const selective = revalidateTerms(edited, before, [FIELD_TERMS[field]]);
          const key = (r: typeof full) => r.failed.map((f) => `${f.id}:${f.flag}:${f.line ?? ''}`).sort();
          expect(key(selective).join(" "), `${folder}/${name} ${field}=${value}`).toEqual(key(full).join(" "));
          expect(selective.valid).toBe(full.valid);
          compared++;
          if (key(full).join() !== key(before).join()) changed++;
        }
      }
    }
    console.log(`selective re-validation: ${compared} edits compared, ${changed} changed the report`);
    expect(changed).toBeGreaterThan(compared / 2);
  });
});
