/**
 * Reading a till receipt by its own conventions (receiptConventions.ts states them), where the invoice readers'
 * labels and letterhead rule miss:
 * - a page is a receipt when it prints what only a sale at a till prints: the cash or card tendered, the change,
 *   a cashier, till or counter, a receipt or bill number, a rounding adjustment, a thank-you line (two or more);
 * - the merchant is the registered name in the first lines, before the first date, amount or item: the line with a
 *   company's legal form ("SDN BHD", "S/B", "Ltd", "GmbH"…) or the line over a registration or tax number ("Co. Reg",
 *   "GST ID", "(123456-X)"), never an address, phone or noise line (OCR of a faded header);
 * - the amount paid is the total printed before the payment lines, and where the cash tendered and the change are both
 *   printed, the amount among the total lines equal to cash − change (the till's own identity).
 */
import type { Word } from '../model/extraction.js';
import { findDates } from './dates.js';
import type { FieldValue } from './fieldValues.js';
import { median, type TextLine } from './layout.js';
import { findAmounts } from './amounts.js';
import { blankDates, moneyAmounts } from './moneyAmounts.js';
import { lookalikeDigits, READ_THROUGH_SLIPS } from './ocrDateRepair.js';
import { tillRollWide } from './printedColumns.js';
import { isCountryName } from './countryNames.js';
import { tradeWordsSpelled } from './tradeWords.js';
import { nameDigitsRead } from './nameDigits.js';
import { CASH_STEP, onCashStep, toCashStep } from './rules/money.js';

/** Words only a sale at a till prints, one pattern per kind of evidence. */
const receiptSignals: Record<string, RegExp> = {
  tendered: /(?<!\p{L})(?:cash|tender(?:ed)?|paid|bar(?:geld)?|gegeben|esp[èe]ces?|visa|master\s?card|debit|credit\s?card|card)(?!\p{L})/iu,
  change: /(?<!\p{L})(?:change|r[üu]ckgeld|wechselgeld|rendu|monnaie)(?!\p{L})/iu,
  till: /(?<!\p{L})(?:cashier|till|counter|terminal|pos|kasse|kassierer(?:in)?|caisse|caissi[eè]re?|operator|staff|served\s+by)(?!\p{L})/iu,
  receiptNumber: /(?<!\p{L})(?:receipt|cash\s*bill|bill\s*(?:no|#)|trans(?:action)?\.?\s*(?:no|#|:)|cb\s*#|slip|bon-?nr|beleg|ticket)(?!\p{L})/iu,
  rounding: /(?<!\p{L})(?:rounding|rounded|round\s*adj)(?!\p{L})/iu,
  // A shop's loyalty scheme, whose points a till prints under the sale ("Earned Points 43", "Closing Balance").
  loyalty: /(?<!\p{L})(?:loyalty|(?:earned|opening|closing)\s*points?|points?\s*(?:earned|balance|redeemed|collected))(?!\p{L})/iu,
  // "Thank" alone, or "Th..k you": OCR of a faded thank-you line garbles one of its words ("Thank yau", "Thark You").
  // Also with its first letter lost to a faded edge ("HANK YOU AND DO VISIT US AGAIN").
  thanks: /(?<!\p{L})(?:thank|th\p{L}{2}k\s*y\p{L}u|hank\s*you|come\s*again|visit\s*us\s*again|terima\s*kasih|danke|merci|vielen\s+dank)/iu,
};

export interface ReceiptEvidence {
  isReceipt: boolean;
  /** The kinds of evidence the page prints (receiptSignals' keys). */
  signals: string[];
}

/**
 * Whether the page is a till receipt, and why: two kinds of what only a sale at a till prints, one of them its print
 * width — a page no wider than a till's roll (printedColumns.ts; `rollWidth`). A narrow page alone is not enough: a
 * label, a ticket stub or a cropped scan can be narrow too.
 */
export function receiptEvidence(lines: readonly TextLine[]): ReceiptEvidence {
  const signals = Object.entries(receiptSignals)
    .filter(([, pattern]) => lines.some((line) => pattern.test(line.text)))
    .map(([name]) => name);
  if (tillRollWide(lines.flatMap((line) => line.words))) signals.push('rollWidth');
  return { isReceipt: signals.length >= 2, signals };
}

/** A company's legal form, in the languages and countries receipts come from. */
const legalFormWord =
  /(?<![\p{L}])(?:sdn\.?\s*bhd\.?|s\/b|bhd|berhad|pte\.?\s*ltd\.?|ltd|limited|llc|l\.l\.c|inc|corp(?:oration)?|gmbh|e\.k|sarl|pty|plc|enterprises?|trading|company|co\.(?!\s*(?:reg|no)(?![\p{L}]))|restaurant|cafe|café|mart|store|shop|hardware|stationery|bakery|pharmacy)(?![\p{L}])/iu;
/** Two-letter legal forms count only in capitals: "ag" or "sa" in lower case is OCR noise of a faded line. */
const shortLegalForm = /(?<![\p{L}])(?:AG|KG|SAS|S\.A|BV|B\.V|NV)(?![\p{L}])/u;
const legalForm = { test: (text: string): boolean => legalFormWord.test(text) || shortLegalForm.test(text) };
/** A name's last words when they are its legal form: nothing of the name follows them. */
const endsWithLegalForm = /(?<![\p{L}])(?:sdn\.?\s*bhd|s\/b|bhd|berhad|ltd|limited|llc|inc|gmbh|plc|pty|sarl)\.?$/iu;
/** A line that starts with the legal form: the end of a name wrapped over two lines. */
const legalFormFirst = /^[(\[]?(?:co\.(?!\s*(?:reg|no)(?![\p{L}]))|company(?!\s*(?:reg|no)(?![\p{L}]))|enterprises?(?![\p{L}])|sdn\.?\s*bhd|s\/b|bhd|berhad|pte|ltd|limited|llc|inc|gmbh|\(m\))/iu;
/**
 * A registration or tax number's label, or a registration number in its printed form ("(0005583085-K)", "725186-V"),
 * or a line of nothing but a number closed by a bracket under the name ("(1072825)", "820737),"): an older
 * registration's form.
 */
const registration = /(?<![\p{L}])(?:co\.?\s*reg|reg(?:istration)?\.?\s*no|roc|company\s*no|gst\s*(?:id|reg|no)|sst|vat|ust-?id|abn|uen|tin|siret|tax\s*id)(?![\p{L}])|\b\d{5,12}-[A-Z]\b|^\W{0,2}[(\[]?\d{6,12}[)\]]\W{0,2}$/iu;
/** A registration or tax number's label on the name's own line: the name ends before it. */
const registrationLabel = /(?<![\p{L}])(?:co\.?\s*reg|reg(?:istration)?\.?\s*no|company\s*(?:no|reg)|gst\s*(?:id|reg|no)|roc\s*no)(?![\p{L}])/iu;
/** Address words: a street, an estate, a lot, a floor. */
const addressWord =
  /(?<![\p{L}])(?:jalan|jln|taman|lorong|lot|no\.?|road|rd|street|st|avenue|ave|blvd|lane|floor|level|block|blk|bk|unit|suite|stra(?:ss|ß)e|str|rue|platz|weg|kawasan|persiaran|bandar|wisma|plaza|mall)(?![\p{L}])/iu;
const contactLine = /(?<![\p{L}])(?:tel|fax|phone|h\/p|mobile|email|e-mail|www|http)(?![\p{L}])|@|\d{2,4}[- ]\d{3,4}[- ]?\d{3,4}/iu;
const postcode = /(?<!\d)\d{5}(?!\d)/;
/**
 * What a receipt prints at its foot: a thank-you, the returns policy, a call for feedback. Never the merchant's name;
 * above the header it is the tail of the previous receipt on the till roll, photographed with this one.
 */
const footerLine = /(?<![\p{L}])(?:thank|come\s*again|goods\s*sold|returnable|refundable|exchangeable|feedback|complaint)/iu;
/**
 * A greeting or slogan printed around the merchant's name, never the name: "WELCOME", "Selamat Datang", and "TQ" (a
 * thank-you abbreviated: "TQ FOR SHOPPING WITH myNEWS"), and "SHOPPING WITH …" however OCR read the words before it
 * ("TQUFOR SHOPPING WITH").
 */
const greetingLine = /(?<![\p{L}])(?:welcome|selamat\s*datang|tq\s*for|thanks?\s+for|shopping\s+with)(?![\p{L}])/iu;
/**
 * A trade's words, printed under a trade name to say what it is ("THREE STOOGES" / "BISTRO & CAFE"): a line of
 * nothing else names no one. With a legal form beside them they end a wrapped name instead ("RESTAURANT SDN BHD").
 */
const tradeWord = /(?<![\p{L}])(?:restaurant|restoran|cafe|café|bistro|bar|kopitiam|bakery|mart|store|shop|hardware|stationery|pharmacy|seafood|kitchen)(?![\p{L}])/giu;
const onlyTrade = (text: string): boolean => letterCount(text.replace(tradeWord, '').replace(/(?<![\p{L}])and(?![\p{L}])/giu, '')) === 0 && letterCount(text) > 0;
const headerEnd = /(?<![\p{L}])(?:tax\s*invoice|invoice|receipt|cashier|date|qty|description|item|table|bill)(?![\p{L}])/iu;

/** The line's text with a trailing registration number and its brackets taken off ("KEDAI X (0005583085-K)" → "KEDAI X"). */
function nameText(line: TextLine): { text: string; words: Word[] } {
  const words = [...line.words];
  // A registration number is long; a short number ends the name itself ("BHPetrol Permas Jaya 2", a branch).
  // A mark standing alone after the name is OCR of the header's frame ("RESTAURANT JIAWEI |").
  const trailing = (text: string): boolean => (/^[(\[]?[\dA-Z-]*\d[\dA-Z-]*[)\]]?$/i.test(text) && text.length >= 4) || /^[(\[].*[)\]]$/.test(text) || /^[^\p{L}\p{N}()\[\]&]+$/u.test(text);
  while (words.length > 1 && trailing(words[words.length - 1]!.text)) words.pop();
  // A bracket opened after the name with a number in it: the registration ("(Co. No: 20154-T)"), not the name. The
  // digits are counted up to the bracket's close: "( M )" before "SDN. BHD. ( 121889-4 )" is the name's own.
  const bracketed = (i: number): string => {
    const close = words.findIndex((x, j) => j >= i && /[)\]}]/.test(x.text));
    return words.slice(i, close < 0 ? words.length : close + 1).map((x) => x.text).join('');
  };
  const bracket = words.findIndex((w, i) => i > 0 && /^[(\[{]/.test(w.text) && (bracketed(i).match(/\d/g) ?? []).length >= 4);
  if (bracket > 0) words.splice(bracket);
  // Leading marks are OCR of the header's frame or a bracket's stray half (")  CO. (M) SDN BHD").
  let text = words.map((w) => w.text).join(' ').replace(/^[^\p{L}\p{N}]+/u, '').trim();
  // A registration label after the name starts the registration ("Esjay Fuel Enterprise CO. REG. NO: …").
  const label = registrationLabel.exec(text);
  if (label && letterCount(text.slice(0, label.index)) >= 4) {
    const kept = text.slice(0, label.index).trim();
    words.splice(kept.split(/\s+/).length);
    text = kept;
  }
  // The same bracket glued to the legal form, OCR having lost the space ("MYNEWS RETAIL SB(306295-X) FKA …"), its
  // round bracket perhaps read as a curly one ("SB{306295-X").
  const glued = /(?<=\p{L})[(\[{]\s*[\dA-Z-]*\d{4}/u.exec(text);
  if (glued) return { text: text.slice(0, glued.index).trim(), words: words.filter((w) => text.slice(0, glued.index).includes(w.text.split(/[(\[]/)[0]!)) };
  return { text, words };
}

const letterCount = (text: string): number => (text.match(/\p{L}/gu) ?? []).length;

/** Two or more words of three letters or more, each capitalised ("BHPetrol Permas Jaya 2"): a name, not OCR noise. */
const titled = (text: string): boolean => {
  const long = text.split(/\s+/).filter((w) => letterCount(w) >= 3);
  return long.length >= 2 && long.every((w) => /^\p{Lu}/u.test(w) && letterCount(w) / w.length >= 0.75);
};

/** What never names the merchant: a contact, address, postcode or country line, a greeting, thank-you or foot, a till's section line. */
function notAName(text: string): boolean {
  if (contactLine.test(text) || (addressWord.test(text) && /\d/.test(text)) || postcode.test(text) || /^(?:no\.?|lot)\s*\d/i.test(text)) return true;
  // An address line the letterhead continues on the next ("OFF JALAN PUDU," read "OFF JALAN PLC,": a legal form
  // misread in a street's name): a street word and the comma that ends an address's lines.
  if (addressWord.test(text) && /,\s*$/.test(text)) return true;
  // A registration's own label ("Company Reg No. 754054"), the name being on another line.
  if (registrationLabel.exec(text)?.index === 0) return true;
  return isCountryName(text) || greetingLine.test(text) || receiptSignals.thanks!.test(text) || footerLine.test(text) || receiptSignals.till!.test(text) || headerEnd.test(text);
}

/**
 * A line that may carry part of a name printed over several lines: in capitals, no digit, nothing that is no name and
 * no address word ("TAMAN CONTOH" between the name and its GST number starts the address).
 */
function namePart(line: TextLine): boolean {
  const { text } = nameText(line);
  const letters = letterCount(text);
  return letters >= 3 && !/\d/.test(text) && (text.match(/\p{Lu}/gu) ?? []).length / letters > 0.7 && !notAName(text) && !addressWord.test(text);
}

/** The merchant's name joined from its lines as printed: a leading "&" or "(" that nameText took off continues it. */
function joinedName(parts: readonly TextLine[]): { text: string; words: Word[] } {
  let text = '';
  const words: Word[] = [];
  for (const line of parts) {
    const own = nameText(line);
    const mark = /^[(&]/.exec(line.text.trim())?.[0];
    text = `${text} ${mark && !own.text.startsWith(mark) ? mark : ''}${own.text}`.trim();
    words.push(...own.words);
  }
  return { text, words };
}

/** How many lines a merchant's name is printed over at most. */
const NAME_LINES = 3;

/**
 * The lines of a name printed over several, where its registration number closes it: the name stands directly over
 * its registration ("RESTAURANT JIAWEI" / "JIAWEI HOUSE" / "002693074-K"; "THE MARCO POLO KITCH" / "BUKIT INDAH" /
 * "GST Reg No: …"), so the capitals lines from the chosen one down to the registration are one name, and so are
 * those over it where it has no legal form. Null where no registration closes the chosen line within the name's lines.
 */
function registeredBlock(lines: readonly TextLine[], index: number): TextLine[] | null {
  let end = index;
  while (!registration.test(lines[end]!.text) && !(lines[end + 1] && registration.test(lines[end + 1]!.text))) {
    // A name that ends with its legal form ends there ("KEDAI CONTOH SDN BHD" over its branch's line).
    if (endsWithLegalForm.test(legalFormSpelled(nameText(lines[end]!).text))) return null;
    end += 1;
    if (end - index >= NAME_LINES - 1 || !lines[end] || !namePart(lines[end]!)) return null;
  }
  // A name with its legal form is whole from its first line unless that line continues the one above (wrappedName):
  // the capitals over it are a brand or trade name ("KIKU JAPANESE RESTAURANT" over "TK DIVISION KITCHEN SDN BHD");
  // one without may have started above.
  let start = index;
  const registered = lines.slice(index, end + 1).some((line) => legalForm.test(legalFormSpelled(nameText(line).text)));
  const continues = (above: TextLine, line: TextLine): boolean => !registered || wrappedName(nameText(above).text, line.text.trim());
  while (start > 0 && end - start < NAME_LINES - 1 && namePart(lines[start - 1]!) && continues(lines[start - 1]!, lines[start]!)) start -= 1;
  return lines.slice(start, end + 1);
}

type Pick = { score: number; text: string; words: Word[]; index: number };

/**
 * The merchant's name among the receipt's first lines (before the first date, amount or section word), or null where
 * none of them reads as a name.
 */
export function receiptMerchant(lines: readonly TextLine[]): FieldValue<string> | null {
  const header: TextLine[] = [];
  for (const line of lines.slice(0, 12)) {
    // The header ends at its first date, amount or section word, once it holds a line with words: a first line of
    // OCR noise or a stamp's digits ("406 140") does not end it before the letterhead under a "Tax INVOICE".
    // An amount is one printed with its cents: "S/B" read as "$3" after a name is no price.
    const priced = moneyAmounts(line.text).some((a) => /\d[.,]\d{2}$/.test(a.text));
    if (header.some((h) => letterCount(h.text) >= 4) && (findDates(line.text).length > 0 || priced || headerEnd.test(line.text))) break;
    header.push(line);
  }
  let best: Pick | null = null;
  let firstTitled: Pick | null = null;
  header.forEach((line, i) => {
    const { text, words } = nameText(line);
    const letters = letterCount(text);
    const compact = text.replace(/\s+/g, '');
    if (letters < 4 || letters / Math.max(1, compact.length) < 0.6) return;
    // An address's last line, the country ("MALAYSIA" over "Company Reg No."), a thank-you or a receipt's foot, a
    // till's section line ("Cashier [P.NISANTHI]", "Tax Invoice"). Tested as spelled: a legal form's letter read as a
    // digit ("(TAMAN DAYA) SDN 8HD") makes no address line of a name with a place in it.
    if (notAName(legalFormSpelled(text))) return;
    // The trade under a trade name ("THREE STOOGES" / "BISTRO & CAFE") says what it is, not who.
    if (i > 0 && onlyTrade(text)) return;
    // Mostly lower case short words: a slogan or OCR noise rather than a registered name, printed in capitals.
    const upper = (text.match(/\p{Lu}/gu) ?? []).length;
    let score = -0.3 * i;
    // Tested as spelled: a legal form read through an OCR slip ("Sdn.Rhd") still marks the registered name.
    if (legalForm.test(legalFormSpelled(text))) score += 3;
    if (registration.test(line.text) || (header[i + 1] && registration.test(header[i + 1]!.text))) score += 2;
    // The trade printed under a trade name marks the line over it as the name ("THREE STOOGES" / "BISTRO & CAFE").
    if (header[i + 1] && onlyTrade(nameText(header[i + 1]!).text)) score += 2;
    if (upper / letters > 0.7) score += 1;
    if (addressWord.test(text)) score -= 2;
    if (!best || score > best.score) best = { score, text, words, index: i };
    if (!firstTitled && !addressWord.test(text) && titled(text)) firstTitled = { score, text, words, index: i };
  });
  // Without a legal form or a registration number the letterhead rule: the first line that reads as a name.
  const chosen = ((best as Pick | null)?.score ?? 0) > 0 ? (best as Pick | null) : (firstTitled as Pick | null);
  if (!chosen) return registeredBelowHeader(lines, header.length);
  const block = registeredBlock(lines, chosen.index);
  if (block && block.length > 1) {
    const { text, words } = joinedName(block);
    return { value: nameSpelled(text), text, words, label: null };
  }
  // A name wrapped over two lines: the line above starts it.
  const above = header[chosen.index - 1];
  // The line as printed: nameText takes a leading mark off (OCR of a frame), but "&" or "(" there continues a name.
  const printed = header[chosen.index]!.text.trim();
  if (above && (wrappedName(nameText(above).text, printed) || wrappedAtWidth(header, chosen.index))) {
    const start = nameText(above);
    if (letterCount(start.text) >= 3 && !contactLine.test(start.text) && !/\d/.test(start.text)) {
      const mark = /^[(&]/.exec(printed)?.[0];
      const text = `${start.text} ${mark && !chosen.text.startsWith(mark) ? mark : ''}${chosen.text}`;
      return { value: nameSpelled(text), text, words: [...start.words, ...chosen.words], label: null };
    }
  }
  return { value: nameSpelled(chosen.text), text: chosen.text, words: chosen.words, label: null };
}

/** A line as wide as this share of the header's widest ran to the print's edge. */
const FULL_WIDTH = 0.95;
/** Two lines whose words' median heights are within this ratio are printed at one size. */
const SAME_SIZE = 1.25;

/** A line's print: the extent and median height of its words that hold a letter or digit (a frame's "|" is no print). */
function printOf(line: TextLine): { width: number; height: number } {
  const words = line.words.filter((w) => /[\p{L}\p{N}]/u.test(w.text));
  if (words.length === 0) return { width: 0, height: 0 };
  return { width: Math.max(...words.map((w) => w.box[2])) - Math.min(...words.map((w) => w.box[0])), height: median(words.map((w) => w.box[3] - w.box[1])) };
}

/**
 * A name too long for the roll's width wraps where the width runs out, its last word and legal form on the next line
 * ("KEDAI UBAT & RUNCIT HONG" / "NING SDN. BHD."): a legal form's line with one word of name before it continues the
 * line over it where that line is the widest of the header (it ran to the print's edge), printed at the same size (a
 * brand over its company is display type), with two words or more and no legal form of its own. A one-word name
 * under a line that stops short of the edge stands alone.
 */
function wrappedAtWidth(header: readonly TextLine[], index: number): boolean {
  const line = header[index];
  const above = header[index - 1];
  if (!line || !above || !namePart(above)) return false;
  const own = legalFormSpelled(nameText(line).text);
  if (!legalForm.test(own)) return false;
  const name = withoutLegalForm(own);
  if (name.split(/\s+/).filter((w) => letterCount(w) >= 2).length !== 1) return false;
  const start = nameText(above).text;
  if (legalForm.test(legalFormSpelled(start)) || start.split(/\s+/).filter((w) => letterCount(w) >= 2).length < 2) return false;
  const [over, under] = [printOf(above), printOf(line)];
  const widest = Math.max(...header.map((l) => printOf(l).width));
  return over.width >= FULL_WIDTH * widest && Math.max(over.height, under.height) <= SAME_SIZE * Math.min(over.height, under.height);
}

/** How far down the page a merchant's header may be pushed by the tail of the previous receipt on the roll. */
const PUSHED_HEADER_LINES = 20;

/**
 * Where the first lines hold no name (the tail of the previous receipt on the till roll, photographed with this one:
 * its thank-you, cashier and date lines), the merchant's name further down: the first capitals line that stands over
 * its registration number ("FIVE STAR CASH & CARRY" / "(1365663-P)"), a name's strongest mark. Null where none does.
 */
function registeredBelowHeader(lines: readonly TextLine[], from: number): FieldValue<string> | null {
  for (let i = from; i < Math.min(lines.length - 1, PUSHED_HEADER_LINES); i++) {
    const { text } = nameText(lines[i]!);
    if (letterCount(text) < 4 || !namePart(lines[i]!) || onlyTrade(text) || !registration.test(lines[i + 1]!.text) || registrationLabel.test(text)) continue;
    const block = registeredBlock(lines, i) ?? [lines[i]!];
    const joined = joinedName(block);
    return { value: nameSpelled(joined.text), text: joined.text, words: joined.words, label: null };
  }
  return null;
}

/**
 * Whether a name printed over two lines continues from `above` to `line`: the line starts with its legal form
 * ("POPULAR BOOK" / "CO. (M) SDN BHD", "AIK HUAT HARDWARE" / "ENTERPRISE (SETIA") or a bracket or ampersand ("AIK
 * HUAT HARDWARE ENTERPRISE" / "(SETIA ALAM) SDN BHD"); the line above ends with one ("THE COFFEE BEAN &" / "TEA LEAF
 * (M) SDN. BHD."; a bracket left open inside it is OCR's noise as often as not, unless this line closes it:
 * "ENTERPRISE (SETIA" / "ALAM) SDN BHD"); or the line holds nothing but legal-form and trade words ("LIAN CHI PU TIAN
 * VEGETARIAN" / "RESTAURANT SDN BHD"): no name is only its trade. The line's legal form is read through OCR's slips
 * (legalFormSpelled: "C0. (M) SDN BHD").
 */
function wrappedName(above: string, printed: string): boolean {
  const line = legalFormSpelled(printed);
  if (legalFormFirst.test(line) || /^[(&]/.test(line) || closesBracket(above, line)) return true;
  if (/(?:[&(,\-]|(?<!\p{L})and)$/iu.test(above.trim())) return true;
  return letterCount(withoutLegalForm(line)) === 0;
}

/** The text with its legal-form and trade words and a bracketed (M) or (S) taken out: what names the business itself. */
const withoutLegalForm = (text: string): string => text.replace(new RegExp(legalFormWord.source, 'giu'), '').replace(/\((?:m|s)\)/giu, '');

/** Whether `line` closes a bracket that `above` left open ("ENTERPRISE (SETIA" / "ALAM) SDN BHD"): one name's bracket. */
function closesBracket(above: string, line: string): boolean {
  const open = (above.match(/\(/g) ?? []).length - (above.match(/\)/g) ?? []).length;
  return open > 0 && /^[^(]*\)/.test(line);
}

/**
 * A merchant's name with its legal form, its trade words (tradeWords.ts) and the look-alike digits in its words
 * (nameDigits.ts) read back through OCR's slips.
 */
const nameSpelled = (name: string): string => legalFormSpelled(tradeWordsSpelled(nameDigitsRead(name)));

/**
 * A legal form is a closed vocabulary, so its OCR misreadings are read back: "SON BHD", "Shn Bhd", "5DN BHD" are
 * "SDN BHD" (three letters from S to N before BHD), "§/B" is "S/B". BHD's own letters after such an Sdn through the
 * confusions of thermal print: B read as R, 8, 3 or E, H as N, D as O, 0 or I ("Sdn.Rhd", "SDN 8HD", "SDN BNO", "SDN
 * 3HD", "SIN BHI", "SON EHD"); only after an Sdn, so a name's own "RHD" stays. An Sdn at the name's end followed by
 * one or two marks only is "SDN BHD" ("SDN i.", "SDN Bi"): a private company's legal form has both words. "(M)"
 * before it read as "®" is "(M)".
 */
export function legalFormSpelled(name: string): string {
  return name
    .replace(/(?<=(?<![\p{L}\p{N}])[S5§$][\p{L}0-9][NMH]\.?\s*)[B8R3E][HN][D0OI](?![\p{L}\p{N}])/giu, (m) => (/\p{Ll}/u.test(m) ? 'Bhd' : 'BHD'))
    .replace(/(?<![\p{L}\p{N}])[S5§$][\p{L}0-9][NMH](?=\.?\s*B[HN]D(?!\p{L}))/giu, (m) => (/\p{Ll}/u.test(m) ? 'Sdn' : 'SDN'))
    .replace(/(?<![\p{L}\p{N}])[5§$]\/B(?!\p{L})/gu, 'S/B')
    // S/B ending the name, its B read as 8 or 3 as well ("99 CONTOH MART 5/8", "(FC) $/3").
    .replace(/(?<![\p{L}\p{N}])[S5§$]\/[83](?=\s*(?:\(|$))/gu, 'S/B')
    // "CO." with its O read as a zero before the rest of the legal form ("POPULAR BOOK" / "C0. (M) SDN BHD").
    .replace(/(?<![\p{L}\p{N}])([Cc])0(?=\.?\s*(?:\(\s*[Mm]\s*\)|SDN|Sdn|BHD|Bhd|S\/B|LTD|Ltd)(?![\p{L}]))/gu, '$1O')
    // "S/ B", "S /B": the space OCR puts beside the slash of a narrow print.
    .replace(/(?<![\p{L}\p{N}])S(?:\s+\/\s*|\/\s+)B(?![\p{L}\p{N}])/gu, 'S/B')
    // An Sdn that ends the name with a short word from B after it: its Bhd, its letters misread ("Sdn. Bil.", "Bhul."),
    // its B too ("Sdn. Ei.").
    .replace(/(?<![\p{L}\p{N}])(SDN|Sdn)(\.?\s+)(?:B(?![Hh][Dd]\.?$)\p{L}{1,3}|[E8R]\p{L}{0,2})\.?$/u, (_, sdn: string, gap: string) => `${sdn}${gap}${sdn === 'SDN' ? 'BHD' : 'Bhd'}`)
    // "Sdn" is never printed without its "Bhd": one or two marks after it that end the name are its faded remains,
    // and an Sdn that ends the name lost its Bhd to OCR (read onto another line, or not at all).
    .replace(/(?<![\p{L}\p{N}])(SDN|Sdn)(\.?\s+)[^\s]{1,2}$/u, (_, sdn: string, gap: string) => `${sdn}${gap}${sdn === 'SDN' ? 'BHD' : 'Bhd'}`)
    .replace(/(?<![\p{L}\p{N}])(SDN|Sdn)\.?$/u, (sdn: string) => `${sdn} ${sdn.startsWith('SDN') ? 'BHD' : 'Bhd'}`)
    // "(M)" (Malaysia) before the legal form, its bracketed M read as the registered-mark sign: "MONSIEUR ( ® ) SDN.
    // BHD.". A registered company's name carries no trademark sign, least of all before its legal form.
    .replace(/(?:\(\s*®\s*\)|®)(?=\s*(?:SDN|Sdn|BHD|Bhd|BERHAD|Berhad|S\/B)(?![\p{L}]))/gu, '(M)')
    // Its M read as a digit or a bar, the closing bracket perhaps lost ("Advertising (7) Sdn Bhd", "(1 Sdn Bhd", "(M
    // SDN BHD"): a bracket holding one mark and no other letter before the legal form is that "(M)".
    .replace(/\(\s*(?:[\p{N}|!](?:\s*\))?|M(?!\s*\)))(?=\s*(?:SDN|Sdn|BHD|Bhd|BERHAD|Berhad|S\/B)(?![\p{L}]))/gu, '(M)');
}

/**
 * A line naming the amount to pay; not a quantity count, a tax line, a saving or an amount before tax. Also the
 * vocabulary the OCR's second pass looks for (native-models/bundled/regionReread.ts).
 */
export const totalLine = /(?<![\p{L}])(?:total|nett?|amount\s*due|amt\s*due|grand|jumlah|payable|to\s*pay|balance\s*due|summe|rounded|bef(?:ore|\.)?\s*rounding|due(?!\s*(?:date|on|by)(?![\p{L}])))(?![\p{L}])/iu;
// "Before" an amount is not yet paid ("Sub Total Before Discount"), except before the cash rounding ("Bef. Rounding
// 102.40"): that is the total, rounded to the coin where it is not on one (cashRounded). A total of something else
// than money paid — a count, a weight, a saving, a discount ("Total Disc."), a voucher or rebate tendered, the amount
// without tax ("Exclusive of GST", "Total Excluded Tax", "Total Taxable") — names no amount paid either.
const notTheTotal =
  /(?<![\p{L}])(?:qty|quantity|items?|pcs|weight|excl(?:usive|uding|uded?|\.)?|taxable|before(?!\s*rounding)|saving|savings|disc(?:ount)?|rebate|voucher|summary|point|points)(?![\p{L}])|total\s*(?:gst|tax|vat|sst)(?![\p{L}])/iu;
/** A tax's name: a line that names one is the tax ("GST Payable"), unless the total includes it ("Total incl. GST"). */
const taxWord = /(?<![\p{L}])(?:gst|sst|vat|tax|mwst|ust|tva)(?![\p{L}])/iu;
const includesTax = /(?<![\p{L}])incl/iu;

/** OCR of a till's print splits an amount after its decimal point ("49. 40", "50, 00"): joined again. */
const splitDecimals = (text: string): string => text.replace(/(\d)([.,]) (\d{2})(?!\d)/g, '$1$2$3');
const cashLine = /(?<![\p{L}])(?:cash|tender(?:ed)?|paid|bar(?:geld)?|gegeben|esp[èe]ces|visa|master\s?card|card)(?!\p{L})/iu;
const changeLine = /(?<![\p{L}])(?:change|r[üu]ckgeld|wechselgeld|rendu|monnaie)(?!\p{L})/iu;

interface LineAmount {
  line: number;
  value: number;
  text: string;
  words: Word[];
  /** How the amount was read where its own line does not show it whole. */
  why?: string;
}

/** The last money amount a line prints (a till prints the amount at its right end), or on the line under a bare label. */
function amountOf(lines: readonly TextLine[], index: number): LineAmount | null {
  const read = (i: number): LineAmount | null => {
    const line = lines[i];
    if (!line) return null;
    const amounts = moneyAmounts(splitDecimals(line.text));
    const last = amounts[amounts.length - 1];
    if (!last) return null;
    const pieces = last.text.split(' ');
    return { line: i, value: last.value, text: last.text, words: line.words.filter((w) => pieces.some((p) => p.includes(w.text) || w.text.includes(p))) };
  };
  const own = read(index);
  if (own) return own;
  // A label whose amount OCR broke off after its decimal point ("Net Total 25. J") printed it on its own line: the
  // next line's amount is another (the cash tendered), not this one's.
  if (truncatedAmount(lines[index]?.text ?? '')) return null;
  const next = lines[index + 1];
  return next && letterCount(next.text) <= 3 ? read(index + 1) : null;
}

/**
 * The last amount a line prints cut short after its decimal point ("Total RH 88.1", "Net Total 25. J"): a till prints
 * every amount with two decimals, so fewer is OCR losing the rest of a faded print. Null where the line ends on a whole
 * amount.
 */
function truncatedAmount(text: string): { whole: string; decimals: string } | null {
  const last = /(?<![\d.,])(\d{1,6})[.,] ?(\d?)(?![\d.,]|\s*\d)(?!.*\d)/.exec(splitDecimals(text));
  return last ? { whole: last[1]!, decimals: last[2]! } : null;
}

/**
 * A total cut short after its decimal point (truncatedAmount) completed from the lines just under it: the card or cash
 * that paid it exactly, or the total repeated ("Total RH 88.1" over "Visa RM 88.17"): an amount there with the same
 * whole part and the decimals printed. Not the change given, whose amount is another. Null where none begins so.
 */
function completedAmount(lines: readonly TextLine[], index: number): LineAmount | null {
  const cut = truncatedAmount(lines[index]!.text);
  if (!cut) return null;
  for (let i = index + 1; i < lines.length && i <= index + 3; i++) {
    if (changeLine.test(lines[i]!.text)) continue;
    const full = moneyAmounts(lines[i]!.text).find((a) => new RegExp(`^${cut.whole}[.,]${cut.decimals}\\d{${2 - cut.decimals.length}}$`).test(a.text));
    if (full) return { line: index, value: full.value, text: full.text, words: lines[i]!.words.filter((w) => w.text.includes(full.text)), why: `completed from: ${lines[i]!.text}` };
  }
  return null;
}

/** The till's long label words, whose OCR slips tillLabelsRead reads back ("Changef", "Anount", "Roundimg"). */
const tillLabels = ['change', 'amount', 'rounding', 'tendered'];
/** Letters a faded till print's glyphs are read as one for another (shared strokes): m/n/h/b, a/o/e/c, i/l/t/f/1, u/v. */
const letterLookalikes = ['mnhb', 'aoec', 'iltf1', 'uv', 'gq'];
const lookalike = (a: string, b: string): boolean => letterLookalikes.some((group) => group.includes(a) && group.includes(b));

/**
 * Whether `word` is `label` as OCR of a faded till print writes it: one stray character glued at either end
 * ("Changef"), one letter lost inside it ("Cange"), or one letter read as a look-alike ("Anount"). Not any one edit:
 * "Charge" (a service charge) is one letter from "Change", but r/n is no look-alike pair, and a word of the till's own
 * vocabulary stays itself.
 */
function tillLabelSlip(word: string, label: string): boolean {
  const w = word.toLowerCase();
  if (w === label) return false;
  if (w.length === label.length + 1) return w.slice(1) === label || w.slice(0, -1) === label;
  // One letter lost inside a faded word ("Cange"), its first and last kept: no other till word is one letter short of
  // these six- and eight-letter labels.
  if (w.length === label.length - 1) return w[0] === label[0] && w.at(-1) === label.at(-1) && [...label].some((_, k) => label.slice(0, k) + label.slice(k + 1) === w);
  if (w.length !== label.length) return false;
  const differ = [...w].flatMap((ch, i) => (ch === label[i] ? [] : [i]));
  return differ.length === 1 && lookalike(w[differ[0]!]!, label[differ[0]!]!);
}

/** The till's long label words read through OCR's slips (tillLabelSlip), written as the label. */
function tillLabelsRead(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}])[\p{L}1]{5,9}(?![\p{L}\p{N}])/gu, (word) => {
    const label = tillLabels.find((l) => tillLabelSlip(word, l));
    return label ? label[0]!.toUpperCase() + label.slice(1) : word;
  });
}

/**
 * A till line's text as OCR gives it, made readable for amounts and labels: an amount split after its decimal point
 * joined ("49. 40"), a currency glued to the amount taken off ("RM1.00" and its misreadings "M1.00", "RH41.00",
 * "fM0.00"; "rotalRM15.40"), a total word glued to the one before it split ("MNetTotal"), a total word with one
 * letter misread ("Tatal", "Totai", "Fotal"), its first letter lost ("otal") or split by a space ("TOT AL") read as
 * "Total", and the till's other long labels read through their slips (tillLabelsRead: "Changef", "Anount").
 */
export function tillText(text: string): string {
  return tillLabelsRead(splitDecimals(text))
    .replace(/(\p{L})(?:RM|MYR)(?=\d)/gu, '$1 ')
    // A label word glued to its amount ("Rounded130.00", "SBTOTAL28.70"): the print's space lost to OCR.
    .replace(/(?<![\p{L}\p{N}])(\p{L}{3,})(?=\d{1,6}[.,]\d{2}(?![\d.,]))/gu, '$1 ')
    .replace(/(?<![\p{L}\p{N}.,])\p{L}{1,2}(?=\d{1,6}[.,]\d{2}(?!\d))/gu, '')
    .replace(/(\p{Ll})(?=Total)/gu, '$1 ')
    .replace(/(?<!\p{L})(?:\p{L}otal|t\p{L}tal|to\p{L}al|tot\p{L}l|tota[\p{L}1]|otal|tot al|to tal)(?!\p{L})/giu, 'Total');
}

/** The line's own last amount (not the next line's). */
const ownAmount = (lines: readonly TextLine[], index: number): LineAmount | null => {
  const amount = amountOf(lines, index);
  return amount && amount.line === index ? amount : null;
};

/**
 * The amount the till's identity gives, printed on a total line above the tendered one through one OCR slip: its
 * decimal point lost ("TOTAL 1215" for 12.15) or one digit read as a look-alike ("230.00" for 250.00, ocrDateRepair's
 * table). Cash and change agreeing on it outweigh one slip in the total's print. Null where no total line shows it.
 */
function printedThroughSlip(lines: readonly TextLine[], cash: number, paid: number, allowLookalike: boolean): { text: string; words: Word[]; label: string; slip: string } | null {
  const digits = paid.toFixed(2).replace('.', '');
  for (let i = cash - 1; i >= 0; i--) {
    const text = lines[i]!.text;
    if (!totalLine.test(text) || notTheTotal.test(text) || changeLine.test(text) || cashLine.test(text)) continue;
    for (const token of text.match(/\d[\d.,]*\d/g) ?? []) {
      const printed = token.replace(/\D/g, '');
      let slip: string | null = null;
      if (printed === digits && !/[.,]\d{2}$/.test(token)) slip = `${POINT_LOST}: ${token}`;
      else if (allowLookalike && printed.length === digits.length && /[.,]\d{2}$/.test(token)) {
        const differ = [...printed].flatMap((d, k) => (d === digits[k] ? [] : [k]));
        // Two lines that print the same amount before the cash (two totals, or the total and its subtotal) were read
        // alike twice: the slip is then more likely in the cash or change ("TOTAL SALES 35.80", "TOTAL PAYABLE 35.80"
        // over "CHANGE 16.20" for 14.20; "Total Sales (Excluding GST) 1,007.50" over the total and "Change 2.50").
        const printedTwice = lines.slice(0, cash).filter((l) => (splitDecimals(l.text).match(/\d[\d.,]*[.,]\d{2}(?!\d)/g) ?? []).some((a) => a.replace(/\D/g, '') === printed)).length >= 2;
        if (differ.length === 1 && lookalikeDigits(printed[differ[0]!]!, digits[differ[0]!]!) && !printedTwice) slip = `look-alike digit: ${token}`;
      }
      if (slip) return { text: token, words: lines[i]!.words.filter((w) => w.text.includes(token) || token.includes(w.text)), label: text, slip };
    }
  }
  return null;
}

/** A total line's label: not a count, a saving, a tax, the change or the cash tendered ("Total incl. GST" is one). */
const namesTheTotal = (text: string): boolean =>
  totalLine.test(text) && !notTheTotal.test(text) && !changeLine.test(text) && !(taxWord.test(text) && !includesTax.test(text)) && !(cashLine.test(text) && !/incl/i.test(text));

/** OCR of a till's decimal point as a space: "41 50" before a space or the line's end, no digit after, is 41.50. */
const spacedDecimals = (text: string): string => text.replace(/(?<![\d.,])(\d{1,5}) (\d{2})(?=\s|$)(?!\s*\d)/g, '$1.$2');

/**
 * The total among the label–amount pairs a line prints side by side, a two-column foot read as one line ("Total
 * Saving 0.00  Total 14.00"): the last pair with a total's label (namesTheTotal) and its amount, whose decimal point
 * OCR may have read as a space ("Total 41 50"). Null where that pair is no total or prints no amount.
 */
function sideBySideTotal(line: TextLine, index: number): LineAmount | null {
  const pairs = spacedDecimals(line.text).split(/(?<=\d[.,]\d{2})\s+(?=\p{L})/u);
  const pair = pairs.filter((p) => totalLine.test(p)).pop();
  if (!pair || !namesTheTotal(pair)) return null;
  const amount = moneyAmounts(pair).pop();
  if (!amount) return null;
  // The amount's words: those with digits after the pair's label word.
  const label = line.words.map((w) => totalLine.test(tillText(w.text))).lastIndexOf(true);
  return { line: index, value: amount.value, text: amount.text, words: line.words.slice(label + 1).filter((w) => /\d/.test(w.text)) };
}

/** A subtotal's label: the amount before tax or discounts, never the amount paid. */
const subtotalLine = /(?<![\p{L}])sub[\s-]*total(?![\p{L}])/iu;

/** The heading of a tax summary's table, or its column heads. */
const taxSummary = /(?<![\p{L}])(?:(?:gst|sst|vat|tax|mwst)\s*summary|tax\s*code|gst\s*analysis|mwst[- ]?(?:übersicht|satz))(?![\p{L}])/iu;

/** The first line that pays (cash, card or change with an amount), not a total line naming its payment; −1 where none. */
const firstPaymentLine = (lines: readonly TextLine[]): number =>
  lines.findIndex((line) => (cashLine.test(line.text) || changeLine.test(line.text)) && !totalLine.test(line.text.replace(cashLine, '')) && moneyAmounts(line.text).length > 0);

/**
 * The lines that name the total with the amount each prints (`candidates`, page order), and those whose amount OCR
 * lost (`bareTotals`). `lines`: tillText already applied.
 */
function totalLines(lines: readonly TextLine[]): { candidates: LineAmount[]; bareTotals: number[] } {
  const candidates: LineAmount[] = [];
  const bareTotals: number[] = [];
  lines.forEach((line, i) => {
    const whole = namesTheTotal(line.text);
    // Two label–amount pairs side by side ("Total Saving 0.00  Total 14.00"), or the decimal point read as a space.
    const pair = !whole || moneyAmounts(line.text).length === 0 ? sideBySideTotal(line, i) : null;
    if (!whole && !pair) return;
    let amount = pair ?? amountOf(lines, i);
    // A total in brackets is no credit: a till brackets the rounded total it asks for ("Rounded Total (RM): (13.50)").
    if (amount && amount.value < 0 && amount.text.startsWith('(')) amount = { ...amount, value: -amount.value };
    // A minus OCR read before the amount (a leader's dash or noise: "# NET TOTAL -22.25"): a sale's total is never
    // negative, and the cash just under it paying that amount exactly says which it is.
    if (amount && amount.value < 0 && paidExactlyBelow(lines, i, -amount.value)) amount = { ...amount, value: -amount.value };
    // An amount cut short after its decimal point ("Total RH 88.1"), completed from the payment under it.
    if (!amount || (amount.line === i && truncatedAmount(line.text))) amount = completedAmount(lines, i) ?? amount;
    amount ??= pointLostAmount(lines, i);
    // An amount under the smallest coin is no total: it is the rounding adjustment a wrapped label ran into
    // ("Total Sales (Inclusive  Rounding: 0.02" over "of GST) 32.70"), the total's own amount lost.
    if (amount && amount.value >= CASH_STEP) candidates.push(amount);
    else if (!amount || (amount.value > 0 && roundingLine.test(line.text))) bareTotals.push(i);
  });
  return { candidates, bareTotals };
}

/** A cash or card line within a few lines under `index` that tenders exactly `value` (its amount on its line or alone under it). */
function paidExactlyBelow(lines: readonly TextLine[], index: number, value: number): boolean {
  for (let j = index + 1; j < Math.min(lines.length, index + 4); j++) {
    if (cashLine.test(lines[j]!.text) && !changeLine.test(lines[j]!.text) && Math.abs((amountOf(lines, j)?.value ?? NaN) - value) < 0.005) return true;
  }
  return false;
}

/** In a total's label: the amount was read from bare digits, its decimal point lost to OCR. */
export const POINT_LOST = 'decimal point lost';

/**
 * The bare digits (three to six, no decimal point) a line ends with, where a till's amount lost its point. One
 * closing mark after them is passed over: OCR reads the print's right edge or a box's rule as one ("Total Sales
 * (Inclusive of GST) : 2000)"), and a till's bracketed total is the amount asked for all the same ("( 742)"). Null
 * for digits after an amount cut short at its point ("Total: 45. 130"): noise, not the amount.
 */
function bareDigitsEnding(text: string): { digits: string; index: number } | null {
  const unmarked = text.replace(/[)\]|}]\s*$/u, '');
  const bare = /(?<![\d.,])(\d{3,6})\s*$/u.exec(unmarked);
  if (!bare || /\d[.,]\s*$/.test(unmarked.slice(0, bare.index))) return null;
  return { digits: bare[1]!, index: bare.index };
}

/**
 * A total line ending in bare digits ("Total Inclusive GST 2490", "Total: 2682"): a till prints every amount with its
 * cents, so OCR lost the decimal point (24.90). Only where that reading is no less than every amount printed with
 * cents above it (an item, a subtotal: no total is less) — where it is less, the cents may be what was lost
 * ("NetAmt 676" under an item of 340.00), or the amount above misread ("Tol Amt Incl. GST 189.00" over "Total Amt
 * Payable 15900"): nothing tells, and nothing is read. Null also where no amount with cents is printed above.
 */
function pointLostAmount(lines: readonly TextLine[], index: number): LineAmount | null {
  const bare = bareDigitsEnding(lines[index]!.text);
  if (!bare) return null;
  const above = lines
    .slice(0, index)
    .filter((line) => !cashLine.test(line.text) && !changeLine.test(line.text))
    .flatMap((line) => (splitDecimals(line.text).match(/\d[\d,]*\.\d{2}(?!\d)/g) ?? []).map((a) => Number(a.replace(/,/g, ''))));
  if (above.length === 0) return null;
  const largest = Math.max(...above);
  const { digits } = bare;
  const words = lines[index]!.words.filter((w) => w.text.includes(digits));
  const asCents = Number(digits) / 100;
  // Within a coin: a total rounded down to the smallest coin may be under the subtotal printed above it.
  if (asCents >= largest - CASH_STEP) return { line: index, value: asCents, text: digits, words, why: `${POINT_LOST}: ${digits}` };
  return null;
}

/**
 * An item's line by its two amounts with cents, a unit price beside the amount ("2 x 2.50 5.00"). Stricter than a
 * count of any figures (amountAboveTendered's test): a total line whose label OCR garbled into digits ("+001 RM
 * 21. 60") is none.
 */
const pricedItemLine = (text: string): boolean => (splitDecimals(text).match(/\d[.,]\d{2}(?!\d)/g) ?? []).length >= 2;

/**
 * The first change line that prints an amount, on its line or alone under it; −1 where none. Not a line that prints
 * the cash tendered beside the change ("Cash 50.00 Change 10.00": two amounts); a change line that names the cash it is
 * given in prints one ("CASH CHANGE 41.30", "CHANGE CASH RM10.05").
 */
const changeLineOf = (lines: readonly TextLine[], amountAt: (lines: readonly TextLine[], index: number) => LineAmount | null = amountOf): number =>
  lines.findIndex((line, i) => changeLine.test(line.text) && !(cashLine.test(line.text.replace(changeLine, '')) && moneyAmounts(splitDecimals(line.text)).length !== 1) && amountAt(lines, i) !== null);

/**
 * A payment line's own amount, or the bare digits that end it read as cents ("Paid Amount 2000", "Change : 800"):
 * a till prints every amount with its cents, so OCR lost the decimal point. Only for the till's identity checked
 * against a total printed before it (tillPaymentPointLost): three amounts that agree in the same lost scale.
 */
function ownOrPointLost(lines: readonly TextLine[], index: number): LineAmount | null {
  const own = ownAmount(lines, index);
  if (own) return own;
  const bare = bareDigitsEnding(lines[index]!.text);
  if (!bare) return null;
  const { digits } = bare;
  return { line: index, value: Number(digits) / 100, text: digits, words: lines[index]!.words.filter((w) => w.text.includes(digits)), why: `${POINT_LOST}: ${digits}` };
}

interface TillPayment {
  /** The line of the amount tendered, and of the change given. */
  cash: number;
  change: number;
  tendered: LineAmount;
  given: LineAmount;
  /** Tendered − change, to the cent. */
  paid: number;
}

/**
 * The till's payment lines: the change line's amount and the amount printed just above it (the cash or card
 * tendered, whatever OCR made of its label), where the tendered amount covers the change. Null where no change line
 * with an amount is read. `lines`: tillText already applied.
 */
function tillPayment(lines: readonly TextLine[], pointLost = false): TillPayment | null {
  const changeAt = pointLost ? ownOrPointLost : amountOf;
  const tenderedAt = pointLost ? ownOrPointLost : ownAmount;
  const change = changeLineOf(lines, changeAt);
  if (change <= 0) return null;
  // Change given is never negative: a till that prints it with a minus ("Change: -53.75") gave 53.75 back.
  // Its amount may stand alone on the line under its label ("Change ;" over "7.30").
  const printedChange = changeAt(lines, change)!;
  const given = { ...printedChange, value: Math.abs(printedChange.value) };
  let cash = -1;
  for (let i = change - 1; i >= 0 && i >= change - 3 && cash < 0; i--) if (cashLine.test(lines[i]!.text) && tenderedAt(lines, i)) cash = i;
  for (let i = change - 1; i >= 0 && i >= change - 2 && cash < 0; i--) if (tenderedAt(lines, i)) cash = i;
  const tendered = cash >= 0 ? tenderedAt(lines, cash) : null;
  if (!tendered || tendered.value < given.value) return null;
  return { cash, change, tendered, given, paid: Math.round((tendered.value - given.value) * 100) / 100 };
}

/**
 * The till's payment read where OCR lost the decimal point of the tendered amount or the change (or both: a coarse
 * scan loses every point alike, "Paid Amount 2000" / "Change : 800"). Null where neither amount is bare digits; the
 * caller asks only where tillPayment read no payment as printed.
 */
function tillPaymentPointLost(lines: readonly TextLine[]): TillPayment | null {
  const till = tillPayment(lines, true);
  return till && (till.tendered.why ?? till.given.why) ? till : null;
}

/** In a total's label: the amount paid is also the subtotal with the amounts printed under it (subtotalWithCharges). */
export const SUBTOTAL_AND_CHARGES = '= the subtotal and the lines under it';

/**
 * The line of the last subtotal before the amount tendered (`cash`), where it and the amounts printed between it and
 * the tender (a service charge, the tax, a rounding or a discount with its sign) add up to `paid`, tendered − change:
 * the total's whole line lost to OCR ("SUBTOTAL: 55.90", "SRVC 5% 2.80", "CASH 100.00", "CASH CHANGE 41.30" — 58.70 is
 * printed nowhere OCR read). Two sides of the receipt's arithmetic, read from four printed amounts, agree. Not across
 * an item's line (a unit price beside its amount: the subtotal is then no sum of the sale). (A subtotal equal to
 * what was paid on its own is read before this, as the printed amount the identity gives.)
 */
function subtotalWithCharges(lines: readonly TextLine[], cash: number, paid: number): number | null {
  let subtotal = -1;
  for (let i = cash - 1; i >= 0 && subtotal < 0; i--) if (subtotalLine.test(lines[i]!.text) && ownAmount(lines, i)) subtotal = i;
  if (subtotal < 0) return null;
  let sum = ownAmount(lines, subtotal)!.value;
  for (let i = subtotal + 1; i < cash; i++) {
    const amount = ownAmount(lines, i);
    if (!amount) continue;
    if (pricedItemLine(lines[i]!.text)) return null;
    sum += amount.value;
  }
  return Math.abs(sum - paid) < 0.005 ? subtotal : null;
}

/** In a total's label: the amount was read by the till's identity, total = tendered − change, three printed amounts. */
export const TILL_IDENTITY = '= cash − change';

/**
 * The amount paid on a receipt, or null where the page prints no total line before its payment lines. The till's
 * identity total = tendered − change decides where it can: the change line's amount and the amount printed just above
 * it (the cash or card tendered, whatever OCR made of its label) give the total, which must be printed before them; an
 * exact payment (change 0.00, or a total label whose amount OCR lost over a cash line and no change) pays the total.
 */
export function receiptTotal(ocrLines: readonly TextLine[]): FieldValue<number> | null {
  const lines = ocrLines.map((line) => ({ ...line, text: tillText(line.text) }));
  const firstPayment = firstPaymentLine(lines);
  const { candidates, bareTotals } = totalLines(lines);
  const labelled = (amount: LineAmount, why: string): FieldValue<number> => ({ value: amount.value, text: amount.text, words: amount.words, label: `${lines[amount.line]!.text} (${amount.why ? `${amount.why}, ` : ''}${why})` });
  const change = changeLineOf(lines);
  const till = tillPayment(lines);
  if (till) {
    const { cash, tendered, given, paid } = till;
    // A total line that shows it, or else any amount printed before the tendered line (a total label OCR misread).
    // Not an item's line (its unit price beside its amount, "2 x 2.50 5.00"): an item may cost what was paid.
    const printed = Array.from({ length: cash }, (_, i) => (pricedItemLine(lines[i]!.text) ? null : ownAmount(lines, i))).filter((a): a is LineAmount => a !== null);
    const match = candidates.find((c) => c.line < cash && Math.abs(c.value - paid) < 0.005) ?? printed.reverse().find((a) => Math.abs(a.value - paid) < 0.005);
    if (match && paid > 0) return labelled(match, TILL_IDENTITY);
    // A printed total one slip away from it; a look-alike digit only where change was given (with change 0.00 a
    // total printed otherwise says the change was misread, below).
    const near = paid > 0 ? printedThroughSlip(lines, cash, paid, given.value > 0) : null;
    if (near) return { value: paid, text: near.text, words: near.words, label: `${near.label} (${TILL_IDENTITY}, ${near.slip})` };
    // The last total line before the cash lost its amount to OCR ("NET TOTAL  Ni 5" under "Sub Total 64.00"):
    // tendered − change is what it printed, rather than the subtotal above it.
    const lastBare = Math.max(-1, ...bareTotals.filter((i) => i < cash && !subtotalLine.test(lines[i]!.text)));
    const lastPrinted = Math.max(-1, ...candidates.filter((c) => c.line < cash).map((c) => c.line));
    if (paid > 0 && given.value > 0 && lastBare > lastPrinted) return { value: paid, text: tendered.text, words: [...tendered.words, ...given.words], label: `${lines[lastBare]!.text} (${TILL_IDENTITY}, its amount lost)` };
    // The total's whole line lost to OCR: the subtotal and what the lines under it add or take off agree with it.
    const summed = paid > 0 ? subtotalWithCharges(lines, cash, paid) : null;
    if (summed !== null) return { value: paid, text: tendered.text, words: [...tendered.words, ...given.words], label: `${lines[summed]!.text} (${TILL_IDENTITY}, ${SUBTOTAL_AND_CHARGES})` };
    // Change 0.00 with no total printed above it (its amount lost to OCR): the cash paid it exactly. A total that
    // is printed and differs says the change was misread instead.
    if (given.value === 0 && paid > 0 && cashLine.test(lines[cash]!.text) && !candidates.some((c) => c.line < cash)) return labelled(tendered, 'cash, no change');
  }
  // The payment's decimal points lost to OCR: its identity decides only where a total printed before it agrees, a
  // total line with cents or with its point lost alike ("Total Amt Payable : 1200" over "Paid Amount 2000" and
  // "Change : 800") — three amounts in one scale, where no amount above settles it ("FCasteh 187057.75").
  const lostTill = till ? null : tillPaymentPointLost(lines);
  if (lostTill && lostTill.paid >= CASH_STEP) {
    const { cash, paid } = lostTill;
    const match = candidates.find((c) => c.line < cash && Math.abs(c.value - paid) < 0.005);
    if (match) return labelled(match, `${TILL_IDENTITY}, ${POINT_LOST} in the payment`);
    const near = printedThroughSlip(lines, cash, paid, false);
    if (near) return { value: paid, text: near.text, words: near.words, label: `${near.label} (${TILL_IDENTITY}, ${near.slip})` };
  }
  // In a tax summary's table ("GST SUMMARY", "Tax Code % Amount GST") a "Total" row whose last amount is smaller than
  // the one before it ends on the tax column ("Total : 10.94 0.66"): no amount paid. Its row of net, tax and gross
  // ("Total 9.85 0.59 10.44") may be, where the till's own total line lost its amount.
  const summary = lines.findIndex((line) => taxSummary.test(line.text));
  const taxColumn = (c: LineAmount): boolean => {
    if (summary < 0 || c.line <= summary) return false;
    const amounts = moneyAmounts(lines[c.line]!.text);
    return amounts.length >= 2 && amounts[amounts.length - 1]!.value < amounts[amounts.length - 2]!.value;
  };
  // A subtotal over a total line whose amount OCR lost, an amount added or taken off between them ("SUB TOTAL 21.00",
  // "ROUNDING ADJ -0.01", "NET TOTAL ad"), is not what was paid: the lost total is, read below from the payment where
  // it can be. With nothing between them ("SubTotal 25.00", "Net Total"), the subtotal is the total too.
  const beforePayment = (line: number): boolean => firstPayment < 0 || line < firstPayment;
  const changedBetween = (from: number, to: number): boolean => {
    for (let i = from + 1; i < to; i++) if (Math.abs(ownAmount(lines, i)?.value ?? 0) > 0) return true;
    return false;
  };
  const lostBelow = (c: LineAmount): boolean =>
    subtotalLine.test(lines[c.line]!.text) && bareTotals.some((b) => b > c.line && beforePayment(b) && !subtotalLine.test(lines[b]!.text) && changedBetween(c.line, b));
  const before = candidates.filter((c) => !taxColumn(c) && beforePayment(c.line) && !lostBelow(c));
  const chosen = before[before.length - 1];
  if (chosen) return roundedThroughSlip(lines, before, chosen) ?? cashRounded(lines, chosen) ?? { value: chosen.value, text: chosen.text, words: chosen.words, label: chosen.why ? `${lines[chosen.line]!.text} (${chosen.why})` : lines[chosen.line]!.text };
  const above = amountAboveTendered(lines);
  if (above) return cashRounded(lines, above) ?? labelled(above, 'printed over the amount tendered');
  // "TOTAL AMOUNT" whose amount OCR lost, over "CASH RM 6.00" and no change given: the cash paid the total exactly.
  const lastBare = bareTotals[bareTotals.length - 1];
  if (lastBare !== undefined && change < 0) {
    const cash = lines.findIndex((line, i) => i > lastBare && i <= lastBare + 2 && cashLine.test(line.text) && ownAmount(lines, i) !== null);
    const paid = cash >= 0 ? ownAmount(lines, cash)! : null;
    if (paid && paid.value > 0 && !lines.some((line) => changeLine.test(line.text))) return labelled(paid, 'cash, no change');
  }
  return null;
}

/**
 * The amount printed just over the first cash or card line, where no total line was read before it (its label lost
 * to OCR: "fata] Alldr(Rounding 21.40" over "Cash 30.00", "SUBTC:TA 20.40" over "CASH 20.40"): a till prints the
 * amount to pay right before the tender. No more than the amount tendered; not a tax, count or saving line, nor an
 * item's line (a quantity or unit price beside its amount), nor a rounding adjustment (less than the smallest coin).
 * Null where no such line is there.
 */
function amountAboveTendered(lines: readonly TextLine[]): LineAmount | null {
  const cash = lines.findIndex((line, i) => cashLine.test(line.text) && !changeLine.test(line.text) && ownAmount(lines, i) !== null);
  if (cash <= 0) return null;
  const tendered = ownAmount(lines, cash)!;
  for (let i = cash - 1; i >= 0 && i >= cash - 2; i--) {
    const text = lines[i]!.text;
    const amount = ownAmount(lines, i);
    // A total line whose amount OCR lost stands there: an amount over it is an item's (the cash, no change, below).
    if (!amount && namesTheTotal(text)) return null;
    // A rounding adjustment of 0.00 may stand between them.
    if (!amount || Math.abs(amount.value) < CASH_STEP) continue;
    const item = findAmounts(blankDates(text)).length >= 2;
    // A tax line, also one that says the total includes it without naming the total ("Bill inclusive of 6% GST: 3.62").
    if ((taxWord.test(text) && !(includesTax.test(text) && totalLine.test(text))) || notTheTotal.test(text) || item) return null;
    return amount.value > 0 && amount.value <= tendered.value && /[.,]\d{2}$/.test(amount.text) ? amount : null;
  }
  return null;
}

/** A rounding adjustment's line ("Rounding Adj", "Round Off", "Rounded"); not the total before it ("Bef. Rounding"). */
export const roundingLine = /(?<![\p{L}])(?<!bef(?:ore|\.)?\s*)(?:rounding|rounded|round\s*(?:adj|off))/iu;
/** In a total's label: the amount was rounded to the smallest coin because the receipt prints a rounding line. */
export const CASH_ROUNDED = 'rounded to the smallest coin';
export { CASH_STEP };

/**
 * A total that is not yet a multiple of the smallest coin on a receipt that prints a rounding adjustment: the amount
 * paid is the total plus the adjustment ("Total 23.26", "Rounding -0.01": 23.25), or, where OCR lost the adjustment's
 * amount, the total rounded to the nearest step (the line says the till rounds). The rounding line may stand anywhere:
 * a GST summary's total, printed after it, is the amount before rounding. Null where nothing is to round.
 */
function cashRounded(lines: readonly TextLine[], total: LineAmount): FieldValue<number> | null {
  if (onCashStep(total.value)) return null;
  const rounding = lines.findIndex((line) => roundingLine.test(line.text));
  if (rounding < 0) return null;
  const adjustment = ownAmount(lines, rounding);
  const label = `${total.line >= 0 ? lines[total.line]!.text : ''} (${lines[rounding]!.text}: ${CASH_ROUNDED})`.trim();
  const round = (v: number): number => Math.round(v * 100) / 100;
  if (adjustment && Math.abs(adjustment.value) < CASH_STEP && onCashStep(round(total.value + adjustment.value))) return { value: round(total.value + adjustment.value), text: total.text, words: total.words, label };
  // The adjustment's minus sign lost to OCR ("Rounding Adj: 0.01" under 112.36): an adjustment exists to bring the
  // total onto the coin, so where only the other sign does that, it was printed with the other sign.
  if (adjustment && Math.abs(adjustment.value) < CASH_STEP && onCashStep(round(total.value - adjustment.value))) return { value: round(total.value - adjustment.value), text: total.text, words: total.words, label: `${label}, its sign lost` };
  if (adjustment) return null; // an adjustment printed that does not round it: the total stands as printed
  return { value: toCashStep(total.value), text: total.text, words: total.words, label };
}

/** Digits one OCR slip apart: one look-alike digit read for another, or one digit lost ("345" for 3145). */
function oneDigitSlip(printed: string, meant: string): boolean {
  if (printed.length === meant.length) {
    const differ = [...printed].flatMap((d, k) => (d === meant[k] ? [] : [k]));
    return differ.length === 1 && lookalikeDigits(printed[differ[0]!]!, meant[differ[0]!]!);
  }
  return printed.length === meant.length - 1 && [...meant].some((_, k) => meant.slice(0, k) + meant.slice(k + 1) === printed);
}

/**
 * The rounded total misread by one slip, read back through the rounding's identity: the total above the rounding
 * line plus its adjustment is the rounded total under it ("Total Incl. of GST 31.47", "Rounding Adj -0.02", "Total
 * 3.45": 31.45, its "1" lost). Only where the identity lands on the smallest coin and the printed amount is one slip
 * from it (oneDigitSlip) — a look-alike digit only where the adjustment is what brings the total above onto the coin;
 * a rounded total that differs otherwise stands as printed. A repair: held low.
 */
function roundedThroughSlip(lines: readonly TextLine[], before: readonly LineAmount[], chosen: LineAmount): FieldValue<number> | null {
  let rounding = -1;
  for (let i = chosen.line - 1; i >= 0 && rounding < 0; i--) if (roundingLine.test(lines[i]!.text)) rounding = i;
  const prior = before.filter((c) => c.line < rounding).pop();
  const adjustment = rounding >= 0 ? ownAmount(lines, rounding) : null;
  if (!prior || !adjustment || Math.abs(adjustment.value) >= CASH_STEP) return null;
  // Only the adjustment between them: another amount there (a discount, "0.90") takes part in the sum.
  for (let i = prior.line + 1; i < chosen.line; i++) if (i !== rounding && Math.abs(ownAmount(lines, i)?.value ?? 0) > 0) return null;
  const meant = Math.round((prior.value + adjustment.value) * 100) / 100;
  if (!onCashStep(meant) || Math.abs(meant - chosen.value) < 0.005) return null;
  const [printed, digits] = [chosen.value.toFixed(2).replace('.', ''), meant.toFixed(2).replace('.', '')];
  // Two prints one look-alike apart say nothing of which is misread, unless the adjustment ties the total above to
  // the coin (31.47 − 0.02): an adjustment of 0.00 under "9.00" leaves "Net Total 3.00" as printed. A digit lost
  // ("3.45" for 31.45) is read back either way.
  if (printed.length === digits.length && (onCashStep(prior.value) || Math.abs(adjustment.value) < 0.005)) return null;
  // A payment line that prints the rounded total as read ("CASH 277.00") says it was read right.
  if (lines.some((line, i) => i > chosen.line && (cashLine.test(line.text) || changeLine.test(line.text)) && Math.abs((ownAmount(lines, i)?.value ?? NaN) - chosen.value) < 0.005)) return null;
  if (!oneDigitSlip(printed, digits)) return null;
  return { value: meant, text: chosen.text, words: chosen.words, label: `${lines[chosen.line]!.text} (${lines[prior.line]!.text} ${lines[rounding]!.text}: ${CASH_ROUNDED}, ${READ_THROUGH_SLIPS})` };
}

/** The labels of a till's totals block and payment lines: the total, net or gross amount, a tax, the tender, change or rounding. */
const tillFootLabels: readonly RegExp[] = [totalLine, subtotalLine, /(?<![\p{L}])gross(?![\p{L}])/iu, taxWord, cashLine, /(?<![\p{L}])received(?![\p{L}])/iu, changeLine];

/** Whether `text` opens with one of `labels`: the first match has no letter before it ("Change :", "* GST (6%)"). */
const opensWith = (labels: readonly RegExp[], text: string): boolean =>
  labels.some((label) => {
    const m = label.exec(text);
    return m !== null && !/\p{L}/u.test(text.slice(0, m.index));
  });

/**
 * A receipt's items up to its totals block: a row whose description opens with a till's totals or payment label
 * ("Gross Amt", "GST (6%)", "Change", "Round Adj") and every row after it are the foot, read as items where OCR lost
 * the items' own amounts. An item's name that merely contains such a word ("CASHEW NUTS") stays.
 */
export function itemsBeforeTheFoot<T extends { description: string }>(items: readonly T[]): T[] {
  const foot = items.findIndex((item) => opensWith([...tillFootLabels, roundingLine], tillText(item.description)));
  return foot < 0 ? [...items] : items.slice(0, foot);
}

/** An amount a receipt may have paid, with the line that prints it (the tendered amount's, for tendered − change). */
export interface PaidAlternative extends FieldValue<number> {
  line: number;
}

/** The other amounts a receipt may have paid (receiptTotalAlternatives). */
export interface PaidAlternatives {
  /** Tendered − change, where the till prints both (its label ends with TILL_IDENTITY). */
  tillPaid: PaidAlternative | null;
  /** Every total line's amount before the payment lines (not a subtotal's), the last first. */
  printed: PaidAlternative[];
  /**
   * The subtotal lines' amounts before the payment lines, the last first: the amount paid only where the tax
   * summary's arithmetic confirms one (receiptCorroboration.ts) — a receipt prices its items with their tax, so its
   * subtotal is the total where nothing is taken off or added after it.
   */
  subtotals: PaidAlternative[];
}

/** In a total's label: tendered − change where no total line was read, a last resort. */
export const NO_TOTAL_LINE = 'cash − change; no total line read';

/**
 * Where no line names the total (its label or amount lost to OCR), the amount tendered under a cash label less the
 * change given: the till's identity with one witness fewer than where a total line shows it, still a better guess
 * than the largest amount (often the cash itself). Only under a cash label: an amount over the change that is no
 * tender may be the total or the subtotal ("SUBTOTAL 5.15" over "CHANGE DUE 0.05"). Null where no such pair is read.
 */
export function tenderedLessChange(ocrLines: readonly TextLine[]): FieldValue<number> | null {
  const lines = ocrLines.map((line) => ({ ...line, text: tillText(line.text) }));
  const till = tillPayment(lines);
  if (!till || till.paid <= 0 || !cashLine.test(lines[till.cash]!.text)) return null;
  return { value: till.paid, text: till.tendered.text, words: [...till.tendered.words, ...till.given.words], label: `${lines[till.cash]!.text} / ${lines[till.change]!.text} (${NO_TOTAL_LINE})` };
}

/**
 * The amounts a receipt may have paid besides the one receiptTotal chose, for when that one disagrees with the page's
 * own arithmetic (receiptCorroboration.ts). Values as printed (no cash rounding); the chosen one may be among them.
 */
export function receiptTotalAlternatives(ocrLines: readonly TextLine[]): PaidAlternatives {
  const lines = ocrLines.map((line) => ({ ...line, text: tillText(line.text) }));
  const firstPayment = firstPaymentLine(lines);
  const till = tillPayment(lines);
  const tillPaid =
    till && till.paid > 0
      ? { value: till.paid, text: till.tendered.text, words: [...till.tendered.words, ...till.given.words], label: `${lines[till.cash]!.text} / ${lines[till.change]!.text} (${TILL_IDENTITY})`, line: till.cash }
      : null;
  // A subtotal is the amount before tax or discounts: offered apart, as the amount paid only where a strong check
  // confirms it. Its label may be printed closed ("Subtotal:"), which totalLine does not read as a total's.
  const beforePayment = (line: number): boolean => firstPayment < 0 || line < firstPayment;
  const { candidates } = totalLines(lines);
  const before = candidates.filter((c) => beforePayment(c.line) && !subtotalLine.test(lines[c.line]!.text));
  const subtotals = lines.flatMap((line, i) => {
    const amount = beforePayment(i) && subtotalLine.test(line.text) ? ownAmount(lines, i) : null;
    return amount ? [{ value: amount.value, text: amount.text, words: amount.words, label: line.text, line: i }] : [];
  });
  const alternative = (c: LineAmount): PaidAlternative => ({ value: c.value, text: c.text, words: c.words, label: lines[c.line]!.text, line: c.line });
  return { tillPaid, printed: before.reverse().map(alternative), subtotals: subtotals.reverse() };
}

/**
 * A receipt's total that the till's conventions did not read (the invoice readers' total, or one the totals'
 * arithmetic supplied where OCR lost the printed one) rounded to the smallest coin where the receipt prints a rounding
 * adjustment anywhere, as cashRounded does for the till's own total: a GST summary's total of 10.44 on a receipt with
 * "Rounding Adj" (its amount lost) says 10.45 was paid. Null where nothing is to round.
 */
export function receiptRounded(ocrLines: readonly TextLine[], total: FieldValue<number>): FieldValue<number> | null {
  const lines = ocrLines.map((line) => ({ ...line, text: tillText(line.text) }));
  // Anywhere on the page: such a total is often the tax summary's, printed after the rounding line but before rounding.
  const rounded = cashRounded(lines, { line: -1, value: total.value, text: total.text, words: total.words });
  return rounded ? { ...rounded, label: total.label ? `${total.label} ${rounded.label}` : rounded.label } : null;
}

/** In a total's label: no line named the total, and the receipt's largest amount was taken as the amount paid. */
export const LARGEST_PRINTED = 'the largest amount printed; no line names what was paid';

/**
 * The amount paid where no line of the receipt names it (OCR lost the total's label or its amount): the largest amount
 * the receipt prints. Every other figure of a receipt — an item, the subtotal, a tax, a discount — is a part of what
 * is paid; the cash tendered can exceed it, and so can the change given back ("SUBTOTAL 28.70", "CASH 100.00",
 * "CHANGE 71.30"), so a change line's amount is never taken; and where no change is printed, nothing over the amount
 * tendered (a cash or card line's) was paid — such an amount is a misread ("2774.00" for a unit price over "Cash
 * Received 8.00"). Where the till prints change, its identity (tendered − change) has read the total before this is
 * asked, unless OCR garbled one of them. A last resort, shown low. Null where the receipt prints no amount.
 */
export function largestAmountPrinted(ocrLines: readonly TextLine[]): FieldValue<number> | null {
  const texts = ocrLines.map((line) => tillText(line.text));
  // With no change given, the tender paid the sale exactly: nothing larger was paid. (Where change is printed, its
  // identity failed on a garbled amount, and the tender itself may be one: "RM CASH j00.00".)
  const noChange = !texts.some((text) => changeLine.test(text));
  const tendered = texts.filter((text) => cashLine.test(text)).flatMap((text) => moneyAmounts(text).filter((a) => a.hasDecimals && a.value >= CASH_STEP).map((a) => a.value));
  const most = noChange && tendered.length > 0 ? Math.max(...tendered) : Infinity;
  let largest: FieldValue<number> | null = null;
  ocrLines.forEach((line, i) => {
    const text = texts[i]!;
    if (changeLine.test(text)) return;
    for (const amount of moneyAmounts(text)) {
      if (!amount.hasDecimals || amount.value > most + 0.005 || (largest && amount.value <= largest.value)) continue;
      // The label names the rule, not the line: a total word on the line ("Total Inclusive GST:" over an item's
      // 29.00) is no label of this amount and must lend it no confidence (fieldConfidence.ts).
      const pieces = amount.text.split(' ');
      const words = line.words.filter((w) => pieces.some((p) => p.includes(w.text) || w.text.includes(p)));
      largest = { value: amount.value, text: amount.text, words: words.length > 0 ? words : line.words, label: LARGEST_PRINTED };
    }
  });
  return largest;
}

/**
 * The sale's date on a receipt where no label names one: the till prints it with the time of the sale ("04/06/2018
 * 18:17:54"), so a date followed by a time on its line goes before a bare one (a counter or batch number that reads as
 * a date, "8/08/04-1016866").
 */
export function timedDate(lines: readonly TextLine[], monthFirst: boolean): FieldValue<string> | null {
  for (const line of lines) {
    for (const date of findDates(line.text, { monthFirst })) {
      const after = line.text.slice(date.index + date.text.length);
      if (!/^[\s,]*(?:\([A-Za-z]{2,3}\)\s*)?\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?!\d)/.test(after)) continue;
      return { value: date.iso, text: date.text, words: line.words.filter((w) => date.text.includes(w.text)), label: null };
    }
  }
  return null;
}

/** A time of day run together as the till prints it after a date: hhmm or hhmmss, a real time. */
const runTogetherTime = (digits: string): boolean => {
  const [h, m, sec] = [Number(digits.slice(0, 2)), Number(digits.slice(2, 4)), digits.length === 6 ? Number(digits.slice(4)) : 0];
  return h < 24 && m < 60 && sec < 60;
};

/** The ISO date of a day, month and year read from run-together digits, or null: no real date in 1990–2069. */
function runTogetherIso(day: number, month: number, year: number): string | null {
  if (year < 1990 || year > 2069 || month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A date's label before it on its line: "Date", "Tarikh", "Datum". */
const dateLabelBefore = /(?<![\p{L}])(?:date|tarikh|datum)(?![\p{L}])/iu;

/**
 * A date under its label whose one separator OCR lost and whose other it read as a digit — the narrow slash of a
 * till's print ("Date 251202018", "Date: 25/1202018" for 25/12/2018; "160372018" for 16/03/2018): nine digits, day
 * and month then a digit then a four-digit year, or day, a digit, month and year. Only after a date label on the
 * line, only where one reading makes a real date in 1990–2069 (or both the same), the order the page writes dates
 * in; a repair, held low. Null otherwise.
 */
function separatorReadAsDigit(line: TextLine, word: Word, text: string, monthFirst: boolean): FieldValue<string> | null {
  // A slash printed is the first separator, after the day: the digit read for the second then follows the month.
  const slashed = /^\d{2}\/\d{7}$/.test(text);
  const digits = text.replace('/', '');
  if (!/^\d{9}$/.test(digits) || (text.includes('/') && !slashed) || !dateLabelBefore.test(line.text.slice(0, line.text.indexOf(word.text)))) return null;
  const readings = new Set<string>();
  const splits = [[digits.slice(0, 2), digits.slice(2, 4)], ...(slashed ? [] : [[digits.slice(0, 2), digits.slice(3, 5)]])] as const;
  for (const [first, second] of splits) {
    const [day, month] = (monthFirst ? [second, first] : [first, second]).map(Number) as [number, number];
    const year = Number(digits.slice(5));
    const iso = runTogetherIso(day, month, year);
    if (iso) readings.add(iso);
  }
  if (readings.size !== 1) return null;
  return { value: [...readings][0]!, text: word.text, words: [word], label: `${line.text} (${READ_THROUGH_SLIPS}: a separator read as a digit)` };
}

/** A time printed after the date on its line ("25032018 13:11:54"). */
const timeFollows = /^[\s,]*\d{1,2}[:.]\d{2}(?!\d)/;

/**
 * A receipt's date whose separators OCR lost ("27032018", "27/0618", "20180428" year first): eight digits, or
 * day/monthyear, that make a real date in the order the page writes dates, in 1990–2069; also with the time run
 * together after it as a till's date-time stamp prints it ("20180428/191204"). Only where no date was read otherwise;
 * a phone or registration number seldom makes a valid day, month and year in that order. `timed`: only such a date
 * followed by a time of day ("25032018 13:11:54"), the stamp of a sale, for a page not recognised as a receipt.
 */
export function runTogetherDate(lines: readonly TextLine[], monthFirst: boolean, options: { timed?: boolean } = {}): FieldValue<string> | null {
  for (const line of lines) {
    for (const word of line.words) {
      // The date and the time of a till's stamp, a separator between them ("20180428/191204"); without one, twelve
      // or fourteen digits are as likely an item or account number.
      const stamp = /^(\d{8})[/:T-](\d{4}|\d{6})$/.exec(word.text.replace(/[.,:;]+$/, ''));
      const stamped = stamp !== null && runTogetherTime(stamp[2]!);
      const text = stamped ? stamp[1]! : word.text.replace(/[.,:;]+$/, '');
      if (options.timed && !stamped && !timeFollows.test(line.text.slice(line.text.indexOf(word.text) + word.text.length))) continue;
      // Year first, eight digits ("20180428"): the year a plausible one, the rest a month and a day.
      const yearFirst = /^((?:19|20)\d{2})(\d{2})(\d{2})$/.exec(text);
      const m = yearFirst && Number(yearFirst[1]) >= 1990 && Number(yearFirst[2]) <= 12 ? ([text, yearFirst[3]!, yearFirst[2]!, yearFirst[1]!] as const) : /^(\d{2})\/?(\d{2})\/?(\d{4}|\d{2})$/.exec(text);
      if (!m || !/^\d{8}$|^\d{2}\/\d{4,6}$|^\d{4}\/\d{2,4}$/.test(text)) {
        const slipped = options.timed ? null : separatorReadAsDigit(line, word, text, monthFirst);
        if (slipped) return slipped;
        continue;
      }
      const [a, b] = [Number(m[1]), Number(m[2])];
      const [day, month] = monthFirst && !yearFirst ? [b, a] : [a, b];
      let year = Number(m[3]);
      if (m[3]!.length === 2) year += 2000;
      const iso = runTogetherIso(day, month, year);
      if (iso) return { value: iso, text: word.text, words: [word], label: null };
    }
  }
  return null;
}
