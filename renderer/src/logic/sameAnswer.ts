/**
 * Whether two answers of the main side say the same (deep equality of JSON data: objects by their keys, arrays in
 * order). A screen that keeps the object it shows when a new answer says the same renders nothing for it: every save
 * announces `page.updated`, and each list and panel asked again then would otherwise render the review screen anew.
 */
export function sameAnswer(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameAnswer(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  for (const key of keysA) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!sameAnswer((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** `previous` when `next` says the same (the state setter's argument: no render), else `next`. */
export function keepIfSame<T>(previous: T, next: T): T {
  return sameAnswer(previous, next) ? previous : next;
}
