/**
 * The words a merchant's registered name uses to say what it trades — "CONFECTIONERY", "HARDWARE", "PERNIAGAAN" — are,
 * like its legal form, a small vocabulary shared by every merchant of a country, so one of them read with one letter
 * wrong ("CONFECTIUNERY", "CONFECTLONERY", "Adverising") is read back. Only long trade words (eight letters or more:
 * a shorter one is one edit away from too many real words and names), only one slip (a look-alike letter, or one
 * letter lost or added), and never one that adds or takes the plural's S ("ENTERPRISES" is printed as such). Proper
 * names are not touched: they are no vocabulary, and an English lexicon applied to them wrote Malay words as English
 * ("DAGING" → "CAGING": docs/benchmarks.md).
 */
import { levenshtein } from '../checks/textDistance.js';

/**
 * English and Malay trade words of eight letters or more, singular and plural where both are printed, and the
 * spellings one edit apart that are each printed ("industry" / "industri", "jewellery" / "jewelery", "supplier" /
 * "supplies"): a word of the vocabulary is never read as another.
 */
const TRADE_WORDS = [
  'advertising', 'agencies', 'automobil', 'automobile', 'automotive', 'bookstore', 'boutique', 'catering',
  'chemicals', 'clothing', 'computer', 'computers', 'confectionery', 'construction', 'consultancy', 'corporation',
  'cosmetics', 'distribution', 'distributor', 'distributors', 'electrical', 'electronics', 'elektrik', 'engineering',
  'enterprise', 'enterprises', 'equipment', 'furniture', 'handicraft', 'hardware', 'holdings', 'hypermarket',
  'industri', 'industries', 'industry', 'international', 'jewelery', 'jewellery', 'kejuruteraan', 'komputer',
  'kopitiam', 'logistics', 'machinery', 'management', 'manufacturing', 'marketing', 'minimarket', 'pasaraya',
  'pembinaan', 'pemborong', 'percetakan', 'perkhidmatan', 'perniagaan', 'perusahaan', 'petroleum', 'pharmacy',
  'photocopy', 'printing', 'products', 'resources', 'restaurant', 'restoran', 'services', 'solutions', 'stationery',
  'supermarket', 'supplier', 'suppliers', 'supplies', 'syarikat', 'tailoring', 'technology', 'teknologi',
  'telecommunication', 'transport',
];

const vocabulary = new Set(TRADE_WORDS);

/**
 * Letters print's OCR takes for one another (round letters, thin strokes, arches, open tops): a substituted letter
 * outside them is more likely a name of its own ("CATERINA" is no misread "CATERING"). Wider than the till labels'
 * table in receiptReading.ts, whose short words have real neighbours ("Charge" beside "Change"); an eight-letter trade
 * word has none one look-alike away.
 */
const LOOKALIKES = ['aoecudq', 'iltfj', 'mnhbr', 'uvyw', 'gqy', 'ef', 'sz'];
const lookalike = (a: string, b: string): boolean => LOOKALIKES.some((group) => group.includes(a) && group.includes(b));

/** One OCR slip apart: one look-alike letter read for another, or one letter lost or added. */
function oneSlipApart(trade: string, read: string): boolean {
  if (trade.length === read.length) {
    const differ = [...trade].flatMap((c, i) => (c === read[i] ? [] : [i]));
    return differ.length === 1 && lookalike(trade[differ[0]!]!, read[differ[0]!]!);
  }
  return Math.abs(trade.length - read.length) === 1 && levenshtein(trade, read) === 1;
}

/** The trade word `word` misreads by one slip, or null: in the vocabulary already, too short, or no one slip away. */
function tradeWordOf(word: string): string | null {
  const lower = word.toLowerCase();
  // Seven letters read: an eight-letter trade word with a letter lost ("HARDWRE").
  if (lower.length < 7 || vocabulary.has(lower) || !/^\p{L}+$/u.test(lower)) return null;
  const near = TRADE_WORDS.filter((trade) => oneSlipApart(trade, lower));
  // The plural's S added or taken is a word of its own, not a misreading.
  const found = near.filter((trade) => trade !== `${lower}s` && `${trade}s` !== lower);
  return found.length === 1 ? found[0]! : null;
}

/** Keeps the word's case as printed: capitals, capitalised, or lower case. */
function inCaseOf(printed: string, word: string): string {
  if (printed === printed.toUpperCase()) return word.toUpperCase();
  if (printed[0] === printed[0]!.toUpperCase()) return word[0]!.toUpperCase() + word.slice(1);
  return word;
}

/** `name` with each trade word OCR misread by one slip written as the word. */
export function tradeWordsSpelled(name: string): string {
  return name.replace(/\p{L}{7,}/gu, (word) => {
    const trade = tradeWordOf(word);
    return trade ? inCaseOf(word, trade) : word;
  });
}
