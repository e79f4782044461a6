/**
 * ZUGFeRD 1.0 (`rsm:CrossIndustryDocument`, `urn:ferd:CrossIndustryDocument:invoice:1p0`) judged by its own rules.
 *
 * ZUGFeRD 1.0 (2014) predates EN 16931 (2017) and is written in CII D13B paths (HeaderExchangedDocument,
 * ApplicableSupplyChainTradeSettlement, …), not CII D16B's; the EN 16931 schematron does not apply to it (the CEN's XSLT
 * matches nothing in its namespace) and its BR rules read fields ZUGFeRD 1.0 places elsewhere or not at all. What the
 * ZUGFeRD 1.0 specification (FeRD, 25.06.2014, "Berechnungsvorschriften" of the technical appendix) requires of every
 * profile is checked here, on the element tree:
 * - the document's identity: number, type code, issue date, currency, grand total (mandatory in BASIC, COMFORT and
 *   EXTENDED alike);
 * - its arithmetic: line total = billed quantity × net price ÷ price basis quantity; header line total = Σ line totals;
 *   tax basis = line total − allowance total + charge total; each tax row's amount = basis × rate ÷ 100; tax total =
 *   Σ tax rows; Σ tax bases = tax basis; grand total = tax basis + tax total; amount due = grand total − prepaid.
 * An identity is checked only where all its amounts are present (presence per profile is the schema's and the
 * profile's cardinalities, which are not checked here). The ids (ZF1-…) are Recto's: FeRD published no schematron
 * for 1.0. The `bt` of each rule is the EN 16931 term of the same meaning, so the review screen groups a finding
 * under the field it concerns.
 *
 * Tolerances follow from rounding to cents, not from test files: a value computed from others and written to two
 * decimals is off by at most half a cent (line total, tax amount); a sum of n such rounded values is off from the
 * rounded sum of exact values by at most n half cents (header line total against the lines). Sums and differences of
 * written amounts are exact.
 */
import Big from 'big.js';
import { all, at, textOf, type XmlNode, type XmlValue } from '../../einvoice/xmlInput.js';
import { decOf } from '../decimal.js';
import type { RuleFailure } from '../model/report.js';

export const ZUGFERD1_NAMESPACE = 'urn:ferd:CrossIndustryDocument:invoice:1p0';
/** The rule set's name in reports. */
export const ZUGFERD1_RULE_SET = 'zugferd1';

const HALF_CENT = new Big('0.005');

interface Zf1Rule {
  id: string;
  bt: string[];
  message: string;
}

const RULES = {
  number: { id: 'ZF1-01', bt: ['BT-1'], message: 'A ZUGFeRD 1.0 invoice shall have an invoice number (HeaderExchangedDocument/ID).' },
  typeCode: { id: 'ZF1-02', bt: ['BT-3'], message: 'A ZUGFeRD 1.0 invoice shall have a document type code (HeaderExchangedDocument/TypeCode).' },
  issueDate: { id: 'ZF1-03', bt: ['BT-2'], message: 'A ZUGFeRD 1.0 invoice shall have an issue date (HeaderExchangedDocument/IssueDateTime).' },
  currency: { id: 'ZF1-04', bt: ['BT-5'], message: 'A ZUGFeRD 1.0 invoice shall have an invoice currency code (InvoiceCurrencyCode).' },
  grandTotal: { id: 'ZF1-05', bt: ['BT-112'], message: 'A ZUGFeRD 1.0 invoice shall have a grand total (GrandTotalAmount).' },
  notANumber: { id: 'ZF1-06', bt: [], message: 'An amount, quantity or rate of a ZUGFeRD 1.0 invoice shall be a decimal number.' },
  lineTotal: { id: 'ZF1-CALC-01', bt: ['BT-131', 'BT-129', 'BT-146', 'BT-149'], message: 'A line total (LineTotalAmount) shall be the billed quantity times the net price divided by the price basis quantity, rounded to cents.' },
  linesSum: { id: 'ZF1-CALC-02', bt: ['BT-106', 'BT-131'], message: 'The line total amount (LineTotalAmount) shall be the sum of the line totals.' },
  taxBasis: { id: 'ZF1-CALC-03', bt: ['BT-109', 'BT-106', 'BT-107', 'BT-108'], message: 'The tax basis total (TaxBasisTotalAmount) shall be the line total minus the allowance total plus the charge total.' },
  taxRow: { id: 'ZF1-CALC-04', bt: ['BT-117', 'BT-116', 'BT-119'], message: 'A tax row’s amount (CalculatedAmount) shall be its basis amount times its rate divided by 100, rounded to cents.' },
  taxTotal: { id: 'ZF1-CALC-05', bt: ['BT-110', 'BT-117'], message: 'The tax total (TaxTotalAmount) shall be the sum of the tax rows’ amounts.' },
  taxBases: { id: 'ZF1-CALC-06', bt: ['BT-109', 'BT-116'], message: 'The tax rows’ basis amounts shall add up to the tax basis total (TaxBasisTotalAmount).' },
  grandTotalSum: { id: 'ZF1-CALC-07', bt: ['BT-112', 'BT-109', 'BT-110'], message: 'The grand total (GrandTotalAmount) shall be the tax basis total plus the tax total.' },
  duePayable: { id: 'ZF1-CALC-08', bt: ['BT-115', 'BT-112', 'BT-113'], message: 'The amount due (DuePayableAmount) shall be the grand total minus the prepaid amount.' },
} satisfies Record<string, Zf1Rule>;

/** Every rule id of the set, in order (for documentation and tests). */
export const ZUGFERD1_RULE_IDS = Object.values(RULES).map((r) => r.id);

function failure(rule: Zf1Rule, line?: string): RuleFailure {
  return { id: rule.id, flag: 'fatal', message: rule.message, bt: rule.bt, ...(line !== undefined ? { line } : {}) };
}

/** Reads amounts, remembering whether any present one was not a decimal (ZF1-06, reported once). */
class Amounts {
  notANumber = false;
  /** The element's decimal; null when absent (or not a number, which is recorded). */
  of(node: XmlValue | undefined): Big | null {
    const text = textOf(node);
    if (text === null) return null;
    const value = decOf(text);
    if (value === null) this.notANumber = true;
    return value;
  }
  /** An amount that counts as 0 when absent (allowances, charges, prepaid); null when present but not a number. */
  orZero(node: XmlValue | undefined): Big | null {
    return textOf(node) === null ? new Big(0) : this.of(node);
  }
}

function within(a: Big, b: Big, tolerance: Big): boolean {
  return a.minus(b).abs().lte(tolerance);
}

/** The fired ZUGFeRD 1.0 rules of a CrossIndustryDocument's element tree (the root's children by local name). */
export function checkZugferd1(root: XmlNode): RuleFailure[] {
  const failed: RuleFailure[] = [];
  const amounts = new Amounts();
  const header = at(root, 'HeaderExchangedDocument');
  const tx = at(root, 'SpecifiedSupplyChainTradeTransaction');
  const settlement = at(tx, 'ApplicableSupplyChainTradeSettlement');
  const totals = at(settlement, 'SpecifiedTradeSettlementMonetarySummation');

  if (textOf(at(header, 'ID')) === null) failed.push(failure(RULES.number));
  if (textOf(at(header, 'TypeCode')) === null) failed.push(failure(RULES.typeCode));
  if (textOf(at(header, 'IssueDateTime/DateTimeString')) === null) failed.push(failure(RULES.issueDate));
  if (textOf(at(settlement, 'InvoiceCurrencyCode')) === null) failed.push(failure(RULES.currency));
  if (textOf(at(totals, 'GrandTotalAmount')) === null) failed.push(failure(RULES.grandTotal));

  // Lines: each line's total against its quantity and net price; their sum against the header's line total.
  let linesTotal = new Big(0);
  let lineCount = 0;
  let everyLineHasTotal = true;
  for (const item of all(tx, 'IncludedSupplyChainTradeLineItem')) {
    const lineId = textOf(at(item, 'AssociatedDocumentLineDocument/LineID')) ?? undefined;
    const lineTotal = amounts.of(at(item, 'SpecifiedSupplyChainTradeSettlement/SpecifiedTradeSettlementMonetarySummation/LineTotalAmount'));
    // A line without settlement is a text line (COMFORT's notes between items); one with a settlement must total.
    if (at(item, 'SpecifiedSupplyChainTradeSettlement') === undefined) continue;
    if (lineTotal === null) {
      everyLineHasTotal = false;
      continue;
    }
    lineCount++;
    linesTotal = linesTotal.plus(lineTotal);
    const quantity = amounts.of(at(item, 'SpecifiedSupplyChainTradeDelivery/BilledQuantity'));
    const price = amounts.of(at(item, 'SpecifiedSupplyChainTradeAgreement/NetPriceProductTradePrice/ChargeAmount'));
    const basis = amounts.of(at(item, 'SpecifiedSupplyChainTradeAgreement/NetPriceProductTradePrice/BasisQuantity')) ?? new Big(1);
    if (quantity !== null && price !== null && !basis.eq(0) && !within(quantity.times(price).div(basis), lineTotal, HALF_CENT)) {
      failed.push(failure(RULES.lineTotal, lineId));
    }
  }

  const lineTotal = amounts.of(at(totals, 'LineTotalAmount'));
  const allowanceTotal = amounts.orZero(at(totals, 'AllowanceTotalAmount'));
  const chargeTotal = amounts.orZero(at(totals, 'ChargeTotalAmount'));
  const taxBasis = amounts.of(at(totals, 'TaxBasisTotalAmount'));
  const taxTotal = amounts.of(at(totals, 'TaxTotalAmount'));
  const grandTotal = amounts.of(at(totals, 'GrandTotalAmount'));
  const prepaid = amounts.orZero(at(totals, 'TotalPrepaidAmount'));
  const duePayable = amounts.of(at(totals, 'DuePayableAmount'));

  if (lineTotal !== null && lineCount > 0 && everyLineHasTotal && !within(linesTotal, lineTotal, HALF_CENT.times(lineCount))) failed.push(failure(RULES.linesSum));
  if (taxBasis !== null && lineTotal !== null && allowanceTotal !== null && chargeTotal !== null && !lineTotal.minus(allowanceTotal).plus(chargeTotal).eq(taxBasis)) {
    failed.push(failure(RULES.taxBasis));
  }

  // Tax rows: each row's arithmetic, then their sums against the totals.
  let taxSum = new Big(0);
  let basisSum = new Big(0);
  let rowsComplete = true;
  const rows = all(settlement, 'ApplicableTradeTax');
  for (const row of rows) {
    const calculated = amounts.of(at(row, 'CalculatedAmount'));
    const basis = amounts.of(at(row, 'BasisAmount'));
    const rate = amounts.of(at(row, 'ApplicablePercent'));
    if (calculated === null || basis === null) rowsComplete = false;
    else {
      taxSum = taxSum.plus(calculated);
      basisSum = basisSum.plus(basis);
    }
    if (calculated !== null && basis !== null && rate !== null && !within(basis.times(rate).div(100), calculated, HALF_CENT)) failed.push(failure(RULES.taxRow));
  }
  if (rows.length > 0 && rowsComplete) {
    if (taxTotal !== null && !taxSum.eq(taxTotal)) failed.push(failure(RULES.taxTotal));
    if (taxBasis !== null && !basisSum.eq(taxBasis)) failed.push(failure(RULES.taxBases));
  }
  if (grandTotal !== null && taxBasis !== null && taxTotal !== null && !taxBasis.plus(taxTotal).eq(grandTotal)) failed.push(failure(RULES.grandTotalSum));
  if (duePayable !== null && grandTotal !== null && prepaid !== null && !grandTotal.minus(prepaid).eq(duePayable)) failed.push(failure(RULES.duePayable));

  if (amounts.notANumber) failed.push(failure(RULES.notANumber));
  return failed;
}
