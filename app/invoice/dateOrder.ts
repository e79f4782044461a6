/**
 * Whether a page writes its numeric dates month first ("03/04/2024" = 4 March or 3 April?). The document's locale
 * decides, from the strongest evidence the page itself gives:
 * 1. its own unambiguous dates: "11/17/2017" has no 17th month, "20/10/2015" no 20th — the order a page uses for one
 *    date it uses for all (slashed and dashed dates; dotted dates are day first everywhere, dates.ts);
 * 2. its language: month first is the United States' order, so only an English page can be month first; a German,
 *    French, Dutch, Spanish or Italian page writes the day first;
 * 3. on an English page, its currency or its address: US dollars, or a US state and ZIP code ("Springfield, IL
 *    62701") → month first; pounds, euros, rupees… → day first (the UK, Ireland, India, Australia write the day first);
 *    a GST or SST line or ringgit amounts (Malaysia, Singapore, Australia, India) → day first before any dollar sign.
 */

/**
 * A US postal address's city, state and ZIP code ("Springfield, IL 62701"): the comma after the city tells it from a
 * country code before a postcode, whose town follows it ("Muster Ltd, DE 12345 Leipzig").
 */
const usAddress = /\p{L},\s?(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY])\s+\d{5}(?:-\d{4})?(?!\d)(?!\s*\p{Lu}\p{Ll})/u;

/** A country's tax or currency that writes the day first: GST, SST, ringgit (RM 12.50). */
const dayFirstCountry = /(?<![\p{L}])(?:GST|SST)(?![\p{L}])|(?<![\p{L}])RM\s?\d/u;

/** Short function words that occur on nearly every page of their language and rarely in another's. */
const languageWords: Record<string, RegExp> = {
  en: /(?<![\p{L}])(?:the|and|of|for|to|with|your|please|amount|date|invoice|total|due|bill)(?![\p{L}])/giu,
  de: /(?<![\p{L}])(?:der|die|das|und|für|mit|ihre?|bitte|betrag|datum|rechnung|summe|zahlbar|gesamt)(?![\p{L}])/giu,
  fr: /(?<![\p{L}])(?:le|la|les|et|des|pour|avec|votre|montant|facture|date|échéance|payer)(?![\p{L}])/giu,
  nl: /(?<![\p{L}])(?:het|een|en|voor|met|uw|bedrag|factuur|datum|betalen)(?![\p{L}])/giu,
  es: /(?<![\p{L}])(?:el|los|las|para|con|su|importe|factura|fecha)(?![\p{L}])/giu,
  it: /(?<![\p{L}])(?:il|gli|per|con|importo|fattura|data|totale)(?![\p{L}])/giu,
};

/** The page's language among those the labels know: the one whose function words occur most (null: none). */
export function pageLanguage(text: string): string | null {
  let best: string | null = null;
  let bestCount = 0;
  for (const [language, words] of Object.entries(languageWords)) {
    const count = (text.match(words) ?? []).length;
    if (count > bestCount) {
      best = language;
      bestCount = count;
    }
  }
  return best;
}

export function monthFirstDates(text: string, currency: string | null): boolean {
  let dayFirst = 0;
  let monthFirst = 0;
  for (const m of text.matchAll(/(?<![\d.,/-])(\d{1,2})([/-])(\d{1,2})\2(\d{4}|\d{2})(?![\d.,/-]?\d)/g)) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    if (a > 12 && b >= 1 && b <= 12) dayFirst++;
    else if (b > 12 && b <= 31 && a >= 1 && a <= 12) monthFirst++;
  }
  if (dayFirst !== monthFirst) return monthFirst > dayFirst;
  const language = pageLanguage(text);
  if (language !== null && language !== 'en') return false;
  // A goods and services tax or ringgit amounts: Malaysia, Singapore, Australia, New Zealand, India — day first, even
  // where OCR noise or a foreign price reads as a dollar sign.
  if (dayFirstCountry.test(text)) return false;
  return currency === 'USD' || usAddress.test(text);
}
