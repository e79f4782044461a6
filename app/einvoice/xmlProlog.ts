/**
 * Where an XML document's first element starts, past a byte-order mark, the XML declaration, comments and white
 * space — or -1 where the prolog does not end (an unclosed declaration or comment).
 *
 * Skipped step by step, not by one pattern: `(?:<!--[\s\S]*?-->\s*)*` splits a run of comments in exponentially many
 * ways before failing (30 comments in a file's head: minutes), and the text is untrusted.
 */
export function xmlPrologEnd(text: string): number {
  let at = text.startsWith('\uFEFF') ? 1 : 0;
  const skipSpace = (): void => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  skipSpace();
  if (text.startsWith('<?xml', at)) {
    const end = text.indexOf('?>', at);
    if (end < 0) return -1;
    at = end + 2;
    skipSpace();
  }
  while (text.startsWith('<!--', at)) {
    const end = text.indexOf('-->', at + 4);
    if (end < 0) return -1;
    at = end + 3;
    skipSpace();
  }
  return at;
}
