import { describe, expect, it } from 'vitest';
import { extractInvoiceFields, toPlainFields, wordsFromLayoutText, wordsToLines } from './index.js';
import { looksLikeAddress, partyName } from './partyNames.js';
import type { Word } from '../model/extraction.js';
import { line } from '../../testing/syntheticWords.js';
import { labelAt } from './labelHits.js';

const parties = (text: string) => {
  const plain = toPlainFields(extractInvoiceFields({ words: wordsFromLayoutText(text) }));
  return { seller: plain.seller, buyer: plain.buyer };
};

describe('partyName', () => {
  it('keeps the name and cuts attention prefixes, legal notices, dashed addresses and a trailing title', () => {
    expect(partyName('ATTN: iViveLabs Limited')).toBe('iViveLabs Limited');
    expect(partyName('z. Hd. Erika Muster')).toBe('Erika Muster');
    expect(partyName('Free SAS au capital de 3.441.812 Euros − B 421 938 861 RCS Paris')).toBe('Free SAS');
    expect(partyName('Muster GmbH, Sitz: Köln, Amtsgericht Köln HRB 1234')).toBe('Muster GmbH');
    expect(partyName('QualityHosting AG - Uferweg 40-42 - D-63571 Gelnhausen')).toBe('QualityHosting AG');
    expect(partyName('Amazon Web Services Invoice')).toBe('Amazon Web Services');
    expect(partyName('WS Retail Services Pvt. Ltd.,')).toBe('WS Retail Services Pvt. Ltd.');
  });
  it('rejects identifiers, addresses on the web, sentences and titles', () => {
    expect(partyName('SCONL0303006280999')).toBeNull();
    expect(partyName('alexis@via.ecp.fr')).toBeNull();
    expect(partyName('www.example-shop.de')).toBeNull();
    expect(partyName('Dat betaal ik zelf wel.')).toBeNull();
    expect(partyName('INVOICE')).toBeNull();
    expect(partyName('Retail Invoices/Bill')).toBeNull();
    expect(partyName('Rechnung')).toBeNull();
    expect(partyName('Sidge social: 16 rue Molien')).toBeNull();
    expect(partyName('ng » amazon')).toBeNull();
    expect(partyName('Inc.')).toBeNull();
    expect(partyName('Kopie factuur')).toBeNull();
  });
});

describe('looksLikeAddress', () => {
  it('knows streets and postcodes in English, German, French and Dutch', () => {
    for (const line of ['4557 De Silva St', 'Fremont CA 94538', 'Uferweg 40-42', 'D-63571 Gelnhausen', '35 rue du Logiciel Libre', '69100 Villeurbanne', '3012 CN Rotterdam', 'London SW1A 1AA', 'Postfach 12 34'])
      expect(looksLikeAddress(line), line).toBe(true);
    for (const line of ['Azure Interior', 'Pino Bluebird', 'Rechnungsnr.: 30064443', 'Muster GmbH']) expect(looksLikeAddress(line), line).toBe(false);
  });
});

describe('seller and buyer', () => {
  it('English: the letterhead block is the seller, the "Bill to" block the buyer (without its attention prefix)', () => {
    const text = [
      'Northbridge Analytics',
      '120 Harbour Road',
      'Bristol BS1 4DJ',
      '',
      'Bill to:                                   Invoice No: NB-1042',
      'ATTN: Kestrel Foods Ltd                    Invoice Date: 03/04/2024',
      '12 Mill Lane',
      '',
      'Description                 Qty     Unit Price     Amount',
      'Consulting                  2       500.00         1,000.00',
      'Total                                              1,000.00',
    ].join('\n');
    expect(parties(text)).toEqual({ seller: 'Northbridge Analytics', buyer: 'Kestrel Foods Ltd' });
  });

  it('English: a "From:" label names the seller; "Customer No." is an account number, not the customer', () => {
    const text = [
      'INVOICE',
      'From: Brightwater Supplies Inc.          Customer No.: 448812',
      'Invoice to: Oakridge Dental Clinic',
      'Invoice Number: BW-7781',
      'Total due                               $ 240.00',
    ].join('\n');
    expect(parties(text)).toEqual({ seller: 'Brightwater Supplies Inc.', buyer: 'Oakridge Dental Clinic' });
  });

  it('German: the sender line over the window, the recipient block unlabelled, the footer with "Sitz"', () => {
    const text = [
      'Holzwerk Berger GmbH · Am Sägewerk 3 · 79100 Freiburg',
      '',
      'Bäckerei Sonnenschein',
      'Frau Anna Keller',
      'Lindenstraße 12',
      '80331 München',
      '',
      'Rechnung                                        Rechnungsnr.: 2024-118',
      '                                                Rechnungsdatum: 05.03.2024',
      'Pos.   Bezeichnung              Menge    Einzelpreis    Betrag',
      '1      Eichenregal              2        150,00         300,00',
      'Gesamtbetrag                                            357,00 EUR',
      '',
      'Holzwerk Berger GmbH, Sitz: Freiburg, Amtsgericht Freiburg HRB 7788',
    ].join('\n');
    expect(parties(text)).toEqual({ seller: 'Holzwerk Berger GmbH', buyer: 'Bäckerei Sonnenschein' });
  });

  it('German: "Rechnung an" and "Rechnungssteller" labels', () => {
    const text = ['Rechnungssteller: Müller & Söhne KG', 'Rechnung an: Stadtwerke Ulm', 'Rechnungsnr.: 77-12', 'Gesamtbetrag    99,00 EUR'].join('\n');
    expect(parties(text)).toEqual({ seller: 'Müller & Söhne KG', buyer: 'Stadtwerke Ulm' });
  });

  it('"Von:" and "De :" name the seller, with their colon only', () => {
    expect(parties(['Von: Müller & Söhne KG', 'An: Stadtwerke Ulm', 'Rechnungsnr.: 77-12', 'Gesamtbetrag    99,00 EUR'].join('\n')).seller).toBe('Müller & Söhne KG');
    expect(parties(['De : Atelier Lumière', 'Facture n° F-2024-031', 'Total TTC    120,00 €'].join('\n')).seller).toBe('Atelier Lumière');
    expect(parties(['From the desk of our accounts team', 'Invoice No: 12', 'Total  5.00'].join('\n')).seller).not.toBe('the desk of our accounts team');
  });

  it('"Kunde", "Client" and "Guest Name" name the customer', () => {
    expect(parties(['Rechnung Nr. 4711', 'Kunde: Erika Mustermann', 'Gesamtbetrag   10,00 EUR'].join('\n')).buyer).toBe('Erika Mustermann');
    expect(parties(['Facture n° 88', 'Client :   Boulangerie Martin', 'Total TTC   10,00 €'].join('\n')).buyer).toBe('Boulangerie Martin');
    expect(parties(['PAYMENT RECEIPT', 'Guest Name: Sanjay        Date: 31/12/2017', 'Grand Total   Rs 1939'].join('\n')).buyer).toBe('Sanjay');
  });

  it('French: "Émetteur" / "Facturé à" labels, and the legal line when no label names the seller', () => {
    const labelled = ['Émetteur : Atelier Lumière SARL', 'Facturé à : Maison Dupuis', 'Facture n° F-2024-031', 'Total TTC    120,00 €'].join('\n');
    expect(parties(labelled)).toEqual({ seller: 'Atelier Lumière SARL', buyer: 'Maison Dupuis' });
    const footer = [
      '                                                  Maison Dupuis',
      '                                                  8 rue des Tanneurs',
      '                                                  69002 Lyon',
      'Facture n° 2024-77',
      'Date : 12/02/2024',
      'Désignation              Quantité     P.U. HT      Montant HT',
      'Abonnement               1            20,00        20,00',
      'Total TTC                                          24,00 €',
      '',
      '                      ATELIER LUMIÈRE',
      '          Siège social : 4 place Bellecour - 69002 Lyon',
      '          SARL au capital de 5 000 € - RCS Lyon 123 456 789',
    ].join('\n');
    expect(parties(footer)).toEqual({ seller: 'ATELIER LUMIÈRE', buyer: 'Maison Dupuis' });
  });

  it('the window block is the buyer even where only the buyer carries a legal form or a mail domain', () => {
    const text = [
      'Northbridge Analytics',
      '120 Harbour Road',
      'Bristol BS1 4DJ',
      '',
      '                              Kestrel Foods Ltd',
      '                              4 Market Square',
      '                              Dublin D02 XY45',
      '                              accounts@kestrelfoods.ie',
      'Invoice Number: NB-1043',
      'Description        Quantity     Amount',
      'Survey             1            900.00',
      'Total                           900.00',
    ].join('\n');
    expect(parties(text)).toEqual({ seller: 'Northbridge Analytics', buyer: 'Kestrel Foods Ltd' });
  });

  it('running text that says who sells names the seller when no label does', () => {
    const text = [
      '                     Summary of charges',
      'Bill to:  Kestrel Foods Ltd',
      'Invoice Number: 42183017',
      'Total for this invoice                 $4.11',
      'All services are sold by Cloudline Hosting, Inc.',
    ].join('\n');
    expect(parties(text)).toEqual({ seller: 'Cloudline Hosting, Inc.', buyer: 'Kestrel Foods Ltd' });
  });

  it('a name with a legal form ends at its legal form(s)', () => {
    const text = ['Kopie factuur', 'Delta Handel B.V. iov deltashop.nl', 'Factuurnummer: VF-1005', 'Factuur totaal EUR   49,99'].join('\n');
    expect(parties(text).seller).toBe('Delta Handel B.V.');
    expect(parties(['Kaveri Retail Pvt. Ltd., Bangalore', 'Invoice No: 77', 'Total  12.00'].join('\n')).seller).toBe('Kaveri Retail Pvt. Ltd.');
  });

  it('the name its web domain spells beats a tagline above it', () => {
    const text = [
      '                                            Quality Furniture Since 1990',
      'Blue Harbour',
      '18 Quay Street',
      'Galway H91 2X3',
      '',
      '                              Kestrel Foods',
      '                              4 Market Square',
      '                              Dublin D02 XY45',
      'Invoice INV/2024/0007',
      'Description        Quantity     Amount',
      'Oak table          1            900.00',
      'Total                           900.00',
      '   accounts@blue-harbour.com   www.blue-harbour.com',
    ].join('\n');
    expect(parties(text)).toEqual({ seller: 'Blue Harbour', buyer: 'Kestrel Foods' });
  });

  it("a logo's wordmark read from an image is a brand, not the seller's registered name", () => {
    const lines = [
      'ANNONCES EXPRESS',
      'Facture n° 2024-118',
      'Total TTC   56,02',
      'www.annoncesexpress.fr',
      'MEDIAPRESSE',
      'Siège social : 12 rue des Lilas, 75011 Paris',
    ];
    const words = wordsFromLayoutText(lines.join('\n'));
    const logo = words.filter((word) => word.box[1] < words.find((w) => w.text === 'Facture')!.box[1]);
    const read = (marked: Word[]) => toPlainFields(extractInvoiceFields({ words: marked })).seller;
    // Printed as text, the name the domain spells is the seller's.
    expect(read(words)).toBe('ANNONCES EXPRESS');
    // Read from the logo image, it is passed over for the company the legal line names.
    expect(read(words.map((word) => (logo.includes(word) ? { ...word, fromImage: true as const } : word)))).toBe('MEDIAPRESSE');
  });
});

describe('wordsToLines with a tall word', () => {
  it('keeps small lines beside a tall title apart', () => {
    const word = (text: string, x1: number, y1: number, x2: number, y2: number): Word => ({ text, box: [x1, y1, x2, y2], confidence: null });
    const lines = wordsToLines([
      word('FACTUUR.', 95, 90, 279, 141),
      word('Coolblue', 927, 95, 997, 118),
      word('B.V.', 1002, 95, 1036, 118),
      word('Weena', 927, 124, 981, 147),
      word('664', 986, 124, 1014, 147),
    ]);
    expect(lines.map((l) => l.segments.map((s) => s.text))).toEqual([['FACTUUR.', 'Coolblue B.V.'], ['Weena 664']]);
  });
  it('keeps overlapping OCR boxes of one text line together', () => {
    const word = (text: string, x1: number, y1: number, x2: number, y2: number): Word => ({ text, box: [x1, y1, x2, y2], confidence: null });
    const lines = wordsToLines([word('Mario', 96, 718, 140, 730), word('Kart', 146, 718, 226, 730), word('7', 184, 710, 192, 740), word('3DS', 199, 718, 226, 730), word('€44,99', 881, 710, 937, 740)]);
    expect(lines).toHaveLength(1);
  });
});

describe('party blocks of e-invoice visualisers and letters (synthetic words)', () => {
  const partiesOf = (words: Word[]) => {
    const plain = toPlainFields(extractInvoiceFields({ words }));
    return { seller: plain.seller, buyer: plain.buyer };
  };

  it('skips the key-value rows under a party heading ("Nummer : 12345676") and reads the name under them', () => {
    const words = [
      ...line('Verkäufer:', 100, 100),
      ...line('Nummer', 100, 125),
      ...line(': 12345676', 270, 125),
      ...line('Global Supplies Ltd.', 100, 150),
      ...line('153 Victoria Street', 100, 175),
      ...line('Käufer:', 100, 250),
      ...line('Nummer', 100, 275),
      ...line(': 75969813', 270, 275),
      ...line('Metallbau Leipzig GmbH & Co. KG', 100, 300),
      ...line('Pappelallee 15', 100, 325),
    ];
    expect(partiesOf(words)).toEqual({ seller: 'Global Supplies Ltd.', buyer: 'Metallbau Leipzig GmbH & Co. KG' });
  });

  it('keeps a name that wraps before its legal form whole ("MVM Musterhafter" over "Versicherungsverein … a.G.")', () => {
    const words = [
      ...line('Verkäufer:', 100, 100),
      ...line('MVM Musterhafter', 100, 125),
      ...line('Versicherungsverein Musterstadt a.G.', 100, 150),
      ...line('Musterstr. 12', 100, 175),
    ];
    expect(partiesOf(words).seller).toBe('MVM Musterhafter\nVersicherungsverein Musterstadt a.G.');
  });

  it("a salutation opens the window's address: the sender's lines over it are not the buyer's block", () => {
    const words = [
      ...line('Muster Versicherung', 100, 100),
      ...line('Versicherungsverein Musterstadt a.G.', 100, 125),
      ...line('Herrn', 100, 160),
      ...line('Max Mustermann', 100, 185),
      ...line('Musterstr. 11', 100, 210),
      ...line('12346 Bad Musterhausen', 100, 235),
      ...line('Versicherungsbüro', 100, 300),
      ...line('Musterstr. 12', 100, 325),
      ...line('12345 Musterstadt', 100, 350),
      ...line('Beitragsrechnung', 100, 450),
      ...line('Gesamtbeitrag 50,00 €', 100, 500),
    ];
    expect(partiesOf(words).buyer).toBe('Max Mustermann');
  });

  it("the window envelope's sender line names the seller, the address right under it the buyer", () => {
    const words = [
      ...line('Beispiel Werkzeug Handel', 700, 40),
      ...line('Beispiel Werkzeug Handel · Lindenweg 3 · 54321 Neustadt', 100, 180, 12),
      ...line('Schreinerei Holzwurm', 100, 210),
      ...line('Eichenstraße 8', 100, 235),
      ...line('12345 Altstadt', 100, 260),
      ...line('Rechnung Nr. 2024-117', 100, 400),
      ...line('Gesamtbetrag 119,00 €', 100, 500),
    ];
    expect(partiesOf(words)).toEqual({ seller: 'Beispiel Werkzeug Handel', buyer: 'Schreinerei Holzwurm' });
  });

  it('the same in English and French ("Name | Street | Town", commas)', () => {
    const en = [...line('Northbridge Analytics | 120 Harbour Road | Bristol BS1 4DJ', 100, 180, 12), ...line('Kestrel Foods', 100, 210), ...line('12 Mill Lane', 100, 235), ...line('Leeds LS1 2AB', 100, 260)];
    expect(partiesOf(en)).toEqual({ seller: 'Northbridge Analytics', buyer: 'Kestrel Foods' });
    const fr = [...line('Atelier Dupont, 5 rue des Lilas, 69002 Lyon', 100, 180, 12), ...line('Boulangerie Martin', 100, 210), ...line('12 avenue Foch', 100, 235), ...line('75016 Paris', 100, 260)];
    expect(partiesOf(fr)).toEqual({ seller: 'Atelier Dupont', buyer: 'Boulangerie Martin' });
  });

  it("the footer's registration line names the seller where the letterhead is a logo (text from an image)", () => {
    const words = [
      ...line('NORDWERK', 100, 40).map((w) => ({ ...w, fromImage: true })),
      ...line('Kestrel Foods Ltd', 100, 200),
      ...line('12 Mill Lane', 100, 225),
      ...line('Leeds LS1 2AB', 100, 250),
      ...line('Invoice No: NW-1042', 100, 400),
      ...line('Total 1,000.00', 100, 600),
      ...line('Nordwerk Maschinen GmbH', 100, 1500),
      ...line('USt-IdNr: DE123456789', 500, 1500),
      ...line('Amtsgericht Musterstadt HRB 372876', 100, 1525),
    ];
    expect(partiesOf(words)).toEqual({ seller: 'Nordwerk Maschinen GmbH', buyer: 'Kestrel Foods Ltd' });
  });

  it("a buyer's block printing the buyer's register number high on the page stays the buyer's address block", () => {
    const words = [
      ...line('Nordwerk Maschinen', 100, 40),
      ...line('Industriestr. 4', 100, 65),
      ...line('12345 Musterstadt', 100, 90),
      ...line('Kestrel Foods', 100, 200),
      ...line('12 Mill Lane', 100, 225),
      ...line('Leeds LS1 2AB', 100, 250),
      ...line('Company No 04080176', 100, 275),
      ...line('Invoice No: NW-1042', 100, 400),
      ...line('Total 1,000.00', 100, 1500),
    ];
    expect(partiesOf(words)).toEqual({ seller: 'Nordwerk Maschinen', buyer: 'Kestrel Foods' });
  });

  it('"Customer VAT Number", "Client n° TVA" name an identifier, not the customer', () => {
    expect(labelAt('Customer VAT Number')).toBeNull();
    expect(labelAt('Client n° TVA')).toBeNull();
    expect(labelAt('Customer:')?.field).toBe('buyer');
  });

  it('"Ship to" is not the buyer where a "Bill to" exists, even printed first; alone it names the buyer', () => {
    const both = [...line('Ship to:', 100, 200), ...line('Bill to:', 600, 200), ...line('Harbour Warehouse', 100, 225), ...line('Kestrel Foods Ltd', 600, 225), ...line('Dock 4', 100, 250), ...line('12 Mill Lane', 600, 250)];
    expect(partiesOf(both).buyer).toBe('Kestrel Foods Ltd');
    const alone = [...line('Ship to:', 100, 200), ...line('Harbour Warehouse', 100, 225), ...line('Dock 4', 100, 250)];
    expect(partiesOf(alone).buyer).toBe('Harbour Warehouse');
  });

  it('a label joined by a hyphen to another word names something else ("Verkäufer-IBAN")', () => {
    const words = [...line('Coolblue B.V.', 100, 60), ...line('Weena 664', 100, 85), ...line('Verkäufer-IBAN : DE12 1234 4321 9876 00', 100, 300)];
    expect(partiesOf(words).seller).toBe('Coolblue B.V.');
  });
});
