/**
 * What a party's name looks like as text: a company's legal forms ("GmbH", "B.V.", "SAS"), legal notices after the
 * name ("au capital de …"), attention prefixes, document titles and address lines; and how a name is cut out of the
 * line that prints it (partyName) and compared with another (compactName, nameTokens).
 */

export const legalForm =
  /(?<![\p{L}])(?:inc\.?|ltd\.?|limited|llc|gmbh|ag|kg|ohg|e\.\s?k\.|b\.v\.?|bv|n\.v\.?|s\.a\.?|sas|sarl|s\.a\.r\.l\.?|eurl|s\.r\.l\.?|s\.p\.a\.?|pvt\.?|private\s+limited|plc|corp\.?|co\.|spółka(?:\s+akcyjna)?|sp\.\s*z\s*o\.o\.|a\.\s?g\.|e\.\s?v\.|e\.\s?g\.|gbr|kgaa|ug|s\.l\.|s\.l\.u\.|s\.n\.c\.|s\.a\.s\.)(?![\p{L}])/iu;

/** A further legal form right after one ("Pvt. Ltd.", "GmbH & Co. KG"). */
export const legalFormRun = new RegExp(`^[\\s,&]*(?:${legalForm.source})`, 'iu');

/** Words that start a legal notice after a company's name: the name is what comes before. */
export const legalNotice =
  /(?:^|[\s,;–—-]+)(?:au\s+capital\s+(?:social\s+)?de|capital\s+social|with\s+(?:a\s+)?(?:share\s+)?capital|mit\s+sitz|sitz\s*(?:der\s+gesellschaft\s*)?:|si[èe]ge\s+social|registered\s+(?:office|in)|regd\.?\s+office|rcs\b|siret\b|siren\b|hrb\b|amtsgericht|registergericht|handelsregister|kvk\b|ust-?id|vat\s+(?:no|reg)|n°\s+de\s+tva|cin\b|gstin\b)/iu;

/** A line that is a company's legal notice (the line under the company's name in a footer). */
export const legalNoticeLine =
  /^(?:si[èe]ge\s+social|registered\s+office|regd\.?\s+office|corporate\s+office|sitz\s+der\s+gesellschaft|gesch[äa]ftsf[üu]hr(?:er|ung)|handelsregister|amtsgericht|registergericht|(?:sarl|sas|sa|eurl|sasu)\s+au\s+capital)/iu;

const attentionPrefix = /^(?:attn\.?|attention|c\/o|t\.?\s?a\.?\s?v\.?|z\.\s?hd\.?|zu\s+h[äa]nden(?:\s+von)?|[àa]\s+l[’']attention\s+de|name|nom)(?:\s*[:.])?\s+/iu;
const trailingTitle = /\s+(?:tax\s+)?(?:invoice|receipt|rechnung|gutschrift|facture|factuur|faktura)\.?$/iu;
const documentTitle = /^(?:(?:copy|kopie|copie|duplicate|duplikat|original|tax|retail|commercial|proforma|pro-forma)\s+)*(?:invoices?|bill|receipt|payment\s+receipt|rechnung|gutschrift|quittung|facture|avoir|re[çc]u|factuur|faktura|credit\s+note)(?:\s*\/\s*bill)?[.:]?$/iu;

/** A salutation or form of address alone on its line ("Firma", "Herrn", "Madame") heads an address; the name follows. */
export const salutation = /^(?:firma|herrn?|frau|familie|mr\.?|mrs\.?|ms\.?|messrs\.?|madame|monsieur|mme\.?|m\.|sr\.?|sra\.?|sig\.?(?:ra)?|spett\.?(?:le)?|dhr\.?|mevr\.?)$/iu;

const digitCount = (text: string): number => (text.match(/\d/g) ?? []).length;
const letterCount = (text: string): number => (text.match(/\p{L}/gu) ?? []).length;

/** A party's name: letters, not an identifier, an e-mail or web address, a label, a sentence or a document title. */
export function looksLikeName(text: string): boolean {
  const t = text.trim();
  if (!/\p{L}{2,}/u.test(t) || /^[([]/.test(t) || /@|www\.|https?:|\.(?:com|de|fr|nl|org|net|io)\b/i.test(t)) return false;
  // A colon makes a label and its value ("Siège social: 16 rue …"); marks like "»" or "|" are OCR noise or rules.
  if (/^(?:address|adresse|anschrift|adres)\b/i.test(t) || /:/.test(t) || /[»«©®™~^*=<>{}\\|¬§]/.test(t) || documentTitle.test(t)) return false;
  // An identifier ("SCONL0303006280999", "FO10479674") or a number with a word is no name.
  if (digitCount(t) > letterCount(t) || t.split(/\s+/).some((token) => /\p{L}/u.test(token) && digitCount(token) >= 5)) return false;
  // A sentence ("Dat betaal ik zelf wel.", "This invoice is for …") is a slogan or a note.
  const words = t.split(/\s+/);
  if (words.length > 8 || (words.length >= 3 && /[.!?]$/.test(t) && !legalForm.test(t))) return false;
  return true;
}

/** Postcode and place, a street and number, or a street word: a line of an address. */
export function looksLikeAddress(text: string): boolean {
  const t = text.trim();
  if (/:/.test(t) && !/^\s*(?:adresse|address|anschrift)/i.test(t)) return false;
  return (
    /(?:^|\s)(?:[A-Z]{1,2}-)?\d{4,5}(?:\s?[A-Z]{2})?\s+\p{Lu}/u.test(t) ||
    /\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b/.test(t) ||
    /\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\b/.test(t) ||
    /^\d+(?:\/\d+)?[A-Za-z]?,?\s+\p{L}/u.test(t) ||
    /\p{L}{3,}\.?\s+\d+[a-z]?(?:\s?-\s?\d+[a-z]?)?,?$/u.test(t) ||
    /(?<![\p{L}])(?:street|st\.|road|rd\.|avenue|ave\.?|lane|blvd|boulevard|straße|strasse|str\.|weg|allee|platz|gasse|rue|chemin|all[ée]e|laan|straat|plein|p\.?\s?o\.?\s+box|postfach|cedex|bp\s+\d)(?![\p{L}])/iu.test(t)
  );
}

/**
 * The name in a name line: attention prefix, legal notice, an address after a dash ("QualityHosting AG - Uferweg
 * 40-42 - …") and a trailing document title cut off. Null when nothing name-like is left.
 */
export function partyName(text: string): string | null {
  // A key of a key-value row ("Nummer:") is no name.
  if (documentTitle.test(text.trim()) || salutation.test(text.trim()) || /:\s*$/.test(text)) return null;
  let name = text.trim().replace(attentionPrefix, '');
  const notice = legalNotice.exec(name);
  if (notice && notice.index > 0) name = name.slice(0, notice.index);
  const parts = name.split(/\s+[-–|·•]\s+/);
  if (parts.length > 1 && parts.slice(1).some((p) => looksLikeAddress(p))) name = parts[0]!;
  name = name.replace(trailingTitle, '').replace(/[\s,:;–—-]+$/u, '').trim();
  // A legal form alone ("Inc.", "Sarl") names nobody; two-letter fragments ("ee ae") are OCR noise, capitals aside ("HP").
  const bare = name.replace(new RegExp(legalForm.source, 'giu'), ' ');
  if (!/\p{L}{3,}/u.test(bare) && !/^\p{Lu}{2}$/u.test(bare.trim())) return null;
  return name && looksLikeName(name) ? name : null;
}

/** Letters and digits only, lowercase, no legal form: how a name compares with a web domain or another name. */
export function compactName(name: string): string {
  return name
    .toLowerCase()
    .replace(new RegExp(legalForm.source, 'giu'), ' ')
    .replace(/[^\p{L}\d]+/gu, '');
}

/** A name's words, lowercase, without legal forms: how two names of one party compare. */
export const nameTokens = (name: string): string[] =>
  name
    .toLowerCase()
    .replace(new RegExp(legalForm.source, 'giu'), ' ')
    .split(/[^\p{L}\d]+/u)
    .filter(Boolean);
