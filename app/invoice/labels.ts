/**
 * Field labels in English, German, French, Dutch, Spanish and Italian (plus a few Polish ones),
 * grouped in priority tiers: a label in an earlier tier wins over one in a later tier wherever both appear.
 * Labels match at the start of a segment, case-insensitively, and must end at a word boundary.
 */
import type { CoreFieldKey } from './fieldCatalogue.js';

/** The key fields a page names by a label: all but the currency (read from the codes and symbols by the amounts). */
export type LabelledField = Exclude<CoreFieldKey, 'currency'>;

/**
 * After a customer word: not an account number, a tax identifier or a service line ("Customer No.", "Kunde Nr.",
 * "Customer VAT Number", "Client n° TVA", "Customer Care").
 */
const notAnId = '(?!\\s*(?:(?:vat|tax|tva|ust|mwst|btw|iva|gst)\\.?\\s+)?(?:id|no\\.?|nr\\.?|n°|number|nummer|numéro|code|ref|reference|account|care|service|support)(?![\\p{L}]))';

/** A qualifier or printed document-type code after the document word ("Gutschrift (Selbst ausgestellte Rechnung) (389) Nr."). */
const typeCode = '(?:\\s*\\([^)]{0,40}\\)){0,2}';
/** After a total word: not "of the charges" ("Gesamtbetrag der Zuschläge", "Umsatzsteuer des …"). */
const notOfSomething = '(?!\\s+(?:der|des)(?![\\p{L}]))';

export const fieldLabels: Record<LabelledField, string[][]> = {
  invoice_number: [
    [
      'invoice\\s*(?:number|no\\.?|nr\\.?|num\\.?|#|n°|id)', 'invoice\\s+reference', 'bill\\s*(?:number|no\\.?)', 'receipt\\s*(?:number|no\\.?|#)',
      'rechnungs\\s*-?\\s*(?:nummer|nr\\.?)', 'beleg\\s*-?\\s*(?:nummer|nr\\.?)',
      // A document-type word, optionally with its qualifier or printed type code, then "Nr.": "Rechnung Nr.",
      // "Mietrechnung (387) Nr.", "Rechnung des Versicherers (575) Nr.", "Gutschrift Nr.".
      `[\\p{L}-]*(?:rechnung|gutschrift|rechnungskorrektur)(?:\\s+(?:des|der)\\s+\\p{L}+)?${typeCode}\\s*(?:nr\\.?|nummer|#|no\\.?)`,
      `(?:invoice|credit\\s+note|facture|avoir|factuur|factura|fattura|nota\\s+di\\s+credito)${typeCode}\\s*(?:n[°ºo]\\.?|nr\\.?|num\\.?|number|num[ée]ro|nummer|n[uú]mero|#)`,
      'num[ée]ro\\s+de\\s+facture', 'n°\\s*(?:de\\s+)?facture', 'facture\\s*(?:n°|no\\.?|num[ée]ro|#)',
      'factuur\\s*(?:nummer|nr\\.?|#)', 'faktura\\s*(?:nr\\.?|numer)', 'factura\\s*(?:n[°º]|no\\.?|n\\.?\\s*º|n[uú]m(?:ero|\\.)?)', 'fattura\\s*(?:n[°.º]?|nr\\.?|num(?:ero|\\.)?)',
      'n[uú]mero\\s+(?:de\\s+)?(?:factura|fattura)', 'num\\.?\\s+(?:de\\s+)?(?:factura|fattura)', 'n[°º.]\\s*(?:de\\s+)?(?:factura|fattura|documento)',
    ],
    ['invoice', 'rechnung', 'facture', 'factuur', 'faktura', 'tax\\s+invoice'],
    ['booking\\s*(?:id|no\\.?|number)', 'document\\s*(?:no\\.?|number)', '#'],
  ],
  issue_date: [
    [
      'invoice\\s+date', 'date\\s+of\\s+(?:issue|invoice)', 'issue\\s+date', 'billing\\s+date', 'bill\\s+date', 'receipt\\s+date',
      'rechnungs\\s*-?\\s*datum', 'ausstellungsdatum', 'beleg\\s*-?\\s*datum', 'date\\s+de\\s+facturation', 'fecha\\s+(?:de\\s+)?expedici[oó]n',
      'data\\s+(?:di\\s+)?(?:emissione|documento)', 'data\\s+fattura', 'date\\s+de\\s+(?:la\\s+)?facture', "date\\s+d[’']émission",
      'factuur\\s*datum', 'data\\s+wystawienia', 'fecha\\s+de\\s+(?:emisi[oó]n|factura)', 'data\\s+fattura',
    ],
    ['date', 'datum', 'dated', 'fecha', 'data(?=\\s*:)', 'issued(?:\\s+on)?(?=\\s*:)'],
  ],
  due_date: [
    [
      'due\\s+date', 'date\\s+due', 'payment\\s+due(?:\\s+date)?', 'pay\\s+by', 'due\\s+by', 'f[äa]llig(?:keitsdatum|keit|\\s+am|\\s+bis)?',
      'fecha\\s+de\\s+vencimiento', 'vencimiento', 'data\\s+(?:di\\s+)?scadenza', 'scadenza',
      'zahlbar\\s+bis', 'zahlungsziel', "date\\s+d[’']?[ée]ch[ée]ance", '[ée]ch[ée]ance', 'date\\s+limite\\s+de\\s+paiement',
      '[àa]\\s+payer\\s+avant\\s+le', 'vervaldatum', 'uiterste\\s+betaaldatum', 'termin\\s+p[łl]atno[śs]ci',
    ],
    // Bare words only as a label with its colon ("Due: 2 December 2024"); "due to …" in a sentence is not one.
    ['due(?=\\s*:)'],
  ],
  total: [
    [
      'grand\\s+total', 'total\\s+amount\\s+due', 'amount\\s+due', 'total\\s+due', 'balance\\s+due', 'total\\s+to\\s+pay', 'invoice\\s+total',
      'total\\s+for\\s+this\\s+invoice', 'total\\s+(?:incl\\.?|including|inclusive)\\s+(?:of\\s+)?(?:vat|tax|gst|sst)', 'total\\s+amount',
      // "Gesamtbetrag der Zuschläge" is the total of the charges, not of the invoice.
      `gesamtbetrag${notOfSomething}`, `rechnungsbetrag${notOfSomething}`, 'endbetrag', 'zu\\s+zahlen(?:der\\s+betrag)?', `gesamtsumme${notOfSomething}`, 'bruttobetrag', 'bruttosumme', 'rechnungssumme\\s+brutto',
      'summe\\s+brutto', 'gesamt\\s+brutto', 'importe\\s+total', 'total\\s+factura', 'total\\s+a\\s+pagar', 'totale\\s+(?:fattura|documento|da\\s+pagare|complessivo)',
      'total\\s+ttc', 'montant\\s+ttc', 'montant\\s+total', 'net\\s+[àa]\\s+payer', 'somme\\s+[àa]\\s+payer', 'total\\s+[àa]\\s+payer', 'montant\\s+eur\\s+ttc',
      'factuur\\s*totaal', 'te\\s+betalen', 'totaal\\s+incl\\.?(?:\\s+btw)?', 'totaalbedrag', 'należność\\s+ogółem', 'do\\s+zapłaty',
    ],
    // What remains to pay: the total unless a prepayment was made (then the arithmetic picks the total apart).
    ['total', 'totaal', 'totale', 'summe', 'gesamt', 'brutto', 'betrag', 'razem', 'zahlbetrag', 'importe(?=\\s*:)'],
  ],
  subtotal: [
    [
      'total\\s+(?:excl\\.?|excluding|before|net\\s+of)\\s*(?:vat|tax(?:es)?)?', 'net\\s+total', 'total\\s+net', 'net\\s+amount', 'amount\\s+untaxed', 'untaxed\\s+amount',
      'nettobetrag', 'summe\\s+netto', 'gesamt\\s+netto', 'netto\\s*summe', 'zwischensumme\\s+netto', 'rechnungsbetrag\\s+netto',
      'rechnungssumme\\s+(?:ohne|exkl\\.?|excl\\.?)\\s*(?:ust|mwst)\\.?', 'summe\\s+(?:ohne|exkl\\.?)\\s*(?:ust|mwst)\\.?', 'gesamtbetrag\\s+netto',
      'base\\s+imponible', 'imponibile(?:\\s+totale)?', 'totale\\s+imponibile', 'total\\s+(?:before|w/o)\\s+tax',
      'total\\s+ht', 'montant\\s+(?:eur\\s+)?ht', 'total\\s+hors\\s+taxes?', 'sous-total\\s+ht',
      'exclusief\\s+btw', 'totaal\\s+excl\\.?(?:\\s+btw)?', 'subtotaal\\s+excl\\.?(?:\\s+btw)?', 'grondslag', 'wartość\\s+netto',
    ],
    ['sub\\s*-?\\s*total', 'zwischensumme', 'sous-total', 'subtotaal', 'netto', 'subtotale', 'positionssumme'],
  ],
  tax: [
    [
      'total\\s+(?:vat|tax|gst)', '(?:vat|tax|gst|sales\\s+tax)\\s+amount', 'amount\\s+of\\s+(?:vat|tax)', 'mwst\\.?\\s*-?\\s*betrag', 'ust\\.?\\s*-?\\s*betrag',
      `umsatzsteuer${notOfSomething}`, 'mehrwertsteuer', 'steuerbetrag', 'montant\\s+(?:de\\s+la\\s+)?tva', 'total\\s+tva', 'btw\\s*-?\\s*bedrag', 'kwota\\s+vat',
      'total\\s+iva', 'importe\\s+(?:del\\s+)?iva', 'cuota\\s+(?:de\\s+)?iva', 'totale\\s+iva', 'importo\\s+iva', 'imposta',
    ],
    ['vat', 'tax', 'sales\\s+tax', 'gst', 'mwst\\.?', 'ust\\.?', 'tva', 'btw', 'iva'],
  ],
  seller: [
    [
      'seller', 'sold\\s+by', 'vendor', 'supplier', 'service\\s+provider', '(?:issued|billed|invoiced)\\s+by', 'invoice\\s+from', 'from(?=\\s*:)',
      'verkäufer', 'lieferant', 'rechnungssteller', 'leistungserbringer', 'absender', 'von(?=\\s*:)',
      'vendeur', 'fournisseur', 'émetteur', 'émis\\s+par', 'expéditeur', 'prestataire', 'de(?=\\s*:)', 'leverancier', 'sprzedawca',
      'proveedor', 'emisor', 'vendedor', 'fornitore', 'cedente(?:\\s*/\\s*prestatore)?', 'venditore',
    ],
  ],
  buyer: [
    [
      // "Customer number", "Kunde Nr.", "Client ID" name an account, not the customer.
      '(?:bill|billed|invoice|invoiced|sold)\\s+to(?:\\s+address)?', '(?:billing|invoice)\\s+address', `(?:customer|client|kunde|klant)${notAnId}`,
      '(?:customer|client|guest)\\s+name', 'buyer', 'purchaser', 'recipient',
      'rechnungsempfänger', 'rechnungsadresse', 'rechnung\\s+an', 'käufer\\s*/\\s*leistungsempfänger', 'leistungsempfänger', 'käufer', 'empfänger',
      'comprador', 'destinatario', 'cessionario(?:\\s*/\\s*committente)?', 'committente', 'acquirente',
      'factur[ée]\\s+[àa]', 'adresse\\s+de\\s+facturation', 'destinataire', 'nom\\s+du\\s+client', "nom\\s+de\\s+l[’']abonn[ée]", 'acheteur',
      'factuuradres', 'nabywca',
    ],
    // A delivery address names the buyer only where no bill-to does ("Ship to" beside "Bill to" is where the goods
    // go, EN 16931 BG-13, not who is invoiced); as labels they still stop a billing-address value from running on.
    ['(?:ship|deliver)\\s+to', '(?:delivery|shipping)\\s+address', 'lieferadresse', 'lieferanschrift', 'warenempfänger', 'adresse\\s+de\\s+livraison', 'livr[ée]\\s+[àa]', 'afleveradres'],
  ],
};

/** Compiled: per field, per tier, one regex matching a label at the start of a segment (and any `:`/`#` after it). */
export const labelPatterns: Record<LabelledField, RegExp[]> = Object.fromEntries(
  Object.entries(fieldLabels).map(([field, tiers]) => [
    field,
    tiers.map((tier) => new RegExp(`^\\s*(?:${tier.join('|')})(?![\\p{L}\\d])\\s*(?:\\([^)]{0,12}\\)\\s*)?(?:[:#.]\\s*)?`, 'iu')),
  ]),
) as Record<LabelledField, RegExp[]>;
