/**
 * A digit OCR printed inside a word of a merchant's name is a letter of the same shape: "URBAN 1DEA" is URBAN IDEA,
 * "H0LDINGS" HOLDINGS, "C0FFEE" COFFEE. Names glue a digit to letters rarely ("OLIVE9", a branch code "KL123"), and then
 * not one of these look-alikes inside a word; OCR of condensed or faded capitals does it often. Read back only a single
 * digit of 0, 1, 5 or 8 with letters on both sides, or first before three letters or more, in a word of three letters
 * or more: a digit at a word's end may be a branch's number whose space was lost ("STORE1"), and one after a hyphen is
 * one ("OUTLET-1").
 */

/** The letter each look-alike digit stands for, in capitals and in lower case (a lower-case 1 is l or i: not read). */
const UPPER: Record<string, string> = { 0: 'O', 1: 'I', 5: 'S', 8: 'B' };
const LOWER: Record<string, string> = { 0: 'o', 5: 's' };

const letters = (text: string): number => (text.match(/\p{L}/gu) ?? []).length;

function wordRead(word: string): string {
  const digits = [...word.matchAll(/\d/g)];
  if (digits.length !== 1 || letters(word) < 3) return word;
  const at = digits[0]!.index!;
  const before = word[at - 1] ?? '';
  const after = word[at + 1] ?? '';
  const inside = /\p{L}/u.test(before) && /\p{L}/u.test(after);
  const first = at === 0 && /^\p{L}{3}/u.test(word.slice(1));
  if (!inside && !first) return word;
  // The case of the letters around it: capitals read as capitals, lower case as lower case.
  const neighbours = `${before}${after}`.replace(/\P{L}/gu, '');
  const capitals = neighbours === neighbours.toUpperCase();
  const letter = (capitals ? UPPER : LOWER)[word[at]!];
  return letter ? word.slice(0, at) + letter + word.slice(at + 1) : word;
}

/** The name with each word's look-alike digit read as its letter (see above); other words as printed. */
export function nameDigitsRead(name: string): string {
  return name.replace(/\S+/g, wordRead);
}
