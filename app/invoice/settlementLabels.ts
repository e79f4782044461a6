/**
 * Labels of the amounts an invoice's totals block prints between the line total and what is left to pay (EN 16931
 * BG-22): the sum of line amounts (BT-106), document-level allowances (BT-107) and charges (BT-108), amounts paid
 * before (BT-113) and the amount due (BT-115). English, German and French first, Dutch, Spanish and Italian where the
 * word is common. Kept apart from labels.ts: those labels split a page's segments among the key fields (the longest
 * label wins a segment), while these are read beside them — "Zahlbetrag" is the total there and the amount due here,
 * and on most invoices it is both.
 *
 * Each concept has tiers like labels.ts: a specific label (tier 0) wins over a generic one (tier 1).
 */
export type SettlementField = 'line_total' | 'allowances' | 'charges' | 'prepaid' | 'brought_forward' | 'amount_due';

export const settlementLabels: Record<SettlementField, string[][]> = {
  amount_due: [
    [
      'total\\s+amount\\s+due', 'amount\\s+due', 'balance\\s+due', 'total\\s+due', 'amount\\s+payable', 'total\\s+payable', 'amount\\s+to\\s+pay',
      'amount\\s+owing', 'amount\\s+outstanding', 'please\\s+pay', 'balance\\s+to\\s+pay', 'remaining\\s+balance', 'residual(?:\\s+amount)?',
      'zahlbetrag', 'zahlungsbetrag', 'noch\\s+zu\\s+zahlen(?:der\\s+betrag)?', 'zu\\s+zahlen(?:der\\s+betrag)?', 'offener\\s+betrag', 'restbetrag',
      'f[äa]lliger\\s+betrag', 'ausstehender\\s+betrag', 'zahlbar(?=\\s*:)',
      'montant\\s+[àa]\\s+payer', 'net\\s+[àa]\\s+payer', 'reste\\s+[àa]\\s+payer', 'solde\\s+[àa]\\s+payer', 'solde\\s+d[ûu]', 'montant\\s+d[ûu]',
      'total\\s+[àa]\\s+payer', 'somme\\s+[àa]\\s+payer', '[àa]\\s+payer(?=\\s*:)',
      'te\\s+betalen', 'openstaand\\s+bedrag', 'importe\\s+a\\s+pagar', 'total\\s+a\\s+pagar', 'totale\\s+da\\s+pagare', 'netto\\s+a\\s+pagare',
    ],
    ['balance(?=\\s*:)', 'due(?=\\s*:)', 'solde(?=\\s*:)'],
  ],
  // Paid before this invoice, deducted from the total: due = total − prepaid.
  prepaid: [
    [
      'amount\\s+paid', 'paid\\s+to\\s+date', 'already\\s+paid', 'prepaid(?:\\s+amount)?', 'prepayments?', 'payments?\\s+received', 'less\\s+payments?',
      'advance\\s+payments?', 'deposit\\s+paid', 'less\\s+deposit',
      '(?:erhaltene|geleistete|abzüglich|abzgl\\.?)\\s+(?:anzahlungen|anzahlung|vorauszahlungen|vorauszahlung|abschlagszahlungen|abschlagszahlung)',
      'anzahlungen', 'anzahlung', 'vorauszahlungen', 'vorauszahlung', 'abschlagszahlungen', 'abschlagszahlung', 'bereits\\s+(?:gezahlt|bezahlt|beglichen)',
      'acomptes?(?:\\s+vers[ée]s?)?', 'd[ée]j[àa]\\s+(?:pay[ée]|r[ée]gl[ée]|vers[ée])', 'montant\\s+(?:pay[ée]|r[ée]gl[ée])', 'avance\\s+re[çc]ue',
      'reeds\\s+betaald', 'aanbetaling', 'anticipo', 'acconto',
    ],
    ['paid(?=\\s*:)', 'payment(?=\\s*:)', 'deposit(?=\\s*:)', 'bezahlt(?=\\s*:)', 'gezahlt(?=\\s*:)', 'pay[ée](?=\\s*:)', 'r[ée]gl[ée](?=\\s*:)'],
  ],
  // Owed from before and added to what is due (a negative paid amount in EN 16931): due = total + brought forward.
  brought_forward: [
    [
      'previous\\s+balance', 'balance\\s+(?:brought|carried)\\s+forward', 'outstanding\\s+(?:balance|payments?|amounts?)', 'arrears',
      'offene\\s+(?:zahlungen|posten|betr[äa]ge)', 'saldovortrag', 'alter\\s+saldo', 'r[üu]ckstand', 'solde\\s+(?:ant[ée]rieur|pr[ée]c[ée]dent)', 'report\\s+(?:ant[ée]rieur|[àa]\\s+nouveau)',
    ],
  ],
  // Document-level allowances. Not a cash discount for early payment (Skonto, escompte): that is a payment term,
  // not part of the invoice's amounts (notAllowance below).
  allowances: [
    [
      'gesamtbetrag\\s+der\\s+(?:abschl[äa]ge|nachl[äa]sse|rabatte)', 'summe\\s+(?:der\\s+)?(?:abschl[äa]ge|nachl[äa]sse|rabatte)', 'total\\s+(?:allowances|discounts?)',
      'allowances?\\s+total', 'discount\\s+total', 'total\\s+(?:des\\s+)?remises', 'montant\\s+(?:de\\s+la\\s+)?remise', 'invoice\\s+discount', 'rechnungsrabatt', 'gesamtrabatt',
    ],
    [
      'discounts?', 'allowances?', 'rebate', 'less\\s+discount', 'rabatt', 'nachlass', 'abschl[äa]ge', 'abschlag', 'preisnachlass', 'remises?', 'rabais', 'ristourne',
      'korting', 'descuento', 'sconto',
    ],
  ],
  charges: [
    [
      'gesamtbetrag\\s+der\\s+zuschl[äa]ge', 'summe\\s+(?:der\\s+)?zuschl[äa]ge', 'charges?\\s+total',
      'shipping(?:\\s+(?:and|&)\\s+handling|\\s+costs?|\\s+fees?|\\s+charges?)?', 'freight(?:\\s+charges?)?', 'delivery\\s+(?:charges?|fees?|costs?)', 'handling\\s+(?:fees?|charges?)',
      'postage(?:\\s+(?:and|&)\\s+packing)?', 'surcharge',
      'versandkosten', 'versandpauschale', 'versand', 'frachtkosten', 'fracht', 'transportkosten', 'lieferkosten', 'porto(?:\\s+und\\s+verpackung)?', 'verpackungskosten', 'mindermengenzuschlag',
      'frais\\s+de\\s+(?:port|livraison|transport|exp[ée]dition)', 'frais\\s+d[’\']exp[ée]dition', 'port\\s+et\\s+emballage', 'majoration',
      'verzendkosten', 'gastos\\s+de\\s+env[íi]o', 'spese\\s+di\\s+(?:spedizione|trasporto)',
    ],
    ['zuschl[äa]ge', 'zuschlag', 'charges?(?=\\s*:)', 'port(?=\\s*:)'],
  ],
  line_total: [
    [
      'positionssumme', 'summe\\s+(?:der\\s+)?positionen', 'summe\\s+positionen\\s+netto', 'line\\s+(?:items?\\s+)?total', 'total\\s+(?:of\\s+)?lines', 'lines\\s+total', 'items\\s+total',
      'total\\s+des\\s+lignes', 'total\\s+articles', 'somme\\s+des\\s+lignes',
    ],
  ],
};

/** A cash discount for paying early is a payment term, not an allowance: "Skonto", "2 % Skonto", "escompte". */
export const notAllowance = /skonto|escompte|cash\s+discount|early\s+payment|prompt\s+payment|bei\s+zahlung/iu;

/** Compiled like labels.ts: per field, per tier, a label at the start of a segment with any `:` after it. */
export const settlementPatterns: Record<SettlementField, RegExp[]> = Object.fromEntries(
  Object.entries(settlementLabels).map(([field, tiers]) => [
    field,
    tiers.map((tier) => new RegExp(`^\\s*(?:${tier.join('|')})(?![\\p{L}\\d])\\s*(?:\\([^)]{0,20}\\)\\s*)?(?:[:.]\\s*)?`, 'iu')),
  ]),
) as Record<SettlementField, RegExp[]>;

export interface SettlementLabel {
  field: SettlementField;
  tier: number;
  /** The label as matched, trailing `:` and spaces included. */
  matched: string;
}

/** The longest settlement label starting `text` (ties: the first listed). */
export function settlementLabelAt(text: string): SettlementLabel | null {
  let best: SettlementLabel | null = null;
  for (const [field, tiers] of Object.entries(settlementPatterns) as [SettlementField, RegExp[]][]) {
    tiers.forEach((pattern, tier) => {
      const m = pattern.exec(text);
      if (m && m[0].trim().length > (best?.matched.trim().length ?? 0)) best = { field, tier, matched: m[0] };
    });
  }
  return best;
}

/** A label that names a sum ("Gesamtbetrag der Zuschläge", "Total discounts"), not one charge or allowance. */
const namesASum = /^\s*(?:gesamtbetrag\s+der|summe|total|montant)\b|\btotal\b/iu;

/**
 * Whether a row starting with `text` belongs to the totals block rather than to the item table: the line total, the
 * paid and due amounts, and the sums of allowances or charges. A single "Shipping" or "Rabatt" row may be an item
 * (the arithmetic sorts that out), so it does not end the items.
 */
export function isSettlementRow(text: string): boolean {
  const label = settlementLabelAt(text);
  if (!label) return false;
  if (label.field === 'allowances' || label.field === 'charges') return namesASum.test(label.matched);
  return true;
}

/** Whether `text` starts with an allowance or charge label ("Discount 10%", "Versandkosten"), not a cash discount. */
export function isAdjustmentLabel(text: string): boolean {
  const field = settlementLabelAt(text)?.field;
  return (field === 'allowances' && !notAllowance.test(text)) || field === 'charges';
}
