/**
 * PDF object syntax (ISO 32000-1 §7.3): numbers, booleans, null, names, literal and hex strings, arrays,
 * dictionaries and indirect references `n g R`, parsed from a latin1 string (one character per byte) between two
 * offsets. Bounded: nesting deeper than MAX_NESTING is refused, and nothing is read past `end`; every character is
 * looked at a constant number of times, so parsing is linear in what it reads.
 */

export class PdfName {
  constructor(readonly name: string) {}
}

/** A string's bytes, one latin1 character per byte. */
export class PdfString {
  constructor(readonly raw: string) {}
}

export class PdfRef {
  constructor(
    readonly objectNumber: number,
    readonly generation: number,
  ) {}
}

export type PdfDict = Map<string, PdfValue>;
export type PdfValue = number | boolean | null | PdfName | PdfString | PdfRef | PdfValue[] | PdfDict;

export class PdfSyntaxError extends Error {}

/** Arrays and dictionaries nested deeper than this are refused (real documents nest a handful deep). */
const MAX_NESTING = 64;

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([...'()<>[]{}/%'].map((c) => c.charCodeAt(0)));

export function isPdfWhitespace(code: number): boolean {
  return WHITESPACE.has(code);
}

function isRegular(code: number): boolean {
  return !WHITESPACE.has(code) && !DELIMITERS.has(code) && !Number.isNaN(code);
}

/** `[+-]digits[.digits]` or `[+-].digits` (§7.3.3), checked in one scan (a pattern with two digit runs backtracks). */
function isPdfNumber(token: string): boolean {
  let i = token[0] === '+' || token[0] === '-' ? 1 : 0;
  let digits = 0;
  let dots = 0;
  for (; i < token.length; i++) {
    const ch = token[i]!;
    if (ch === '.') dots++;
    else if (ch >= '0' && ch <= '9') digits++;
    else return false;
  }
  return digits > 0 && dots <= 1;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' };

/** Reads values from `text` at `pos`, never at or past `end`. `pos` is where reading stopped, after a value or an error. */
export class PdfSyntaxReader {
  constructor(
    readonly text: string,
    public pos: number,
    readonly end: number,
  ) {}

  /** Skips whitespace and comments. */
  skipSpace(): void {
    while (this.pos < this.end) {
      const code = this.text.charCodeAt(this.pos);
      if (WHITESPACE.has(code)) this.pos++;
      else if (code === 0x25 /* % */) {
        while (this.pos < this.end && this.text[this.pos] !== '\n' && this.text[this.pos] !== '\r') this.pos++;
      } else return;
    }
  }

  /** True (and moves past it) when `keyword` comes next as a whole token. */
  takeKeyword(keyword: string): boolean {
    this.skipSpace();
    if (!this.text.startsWith(keyword, this.pos) || this.pos + keyword.length > this.end) return false;
    if (isRegular(this.text.charCodeAt(this.pos + keyword.length))) return false;
    this.pos += keyword.length;
    return true;
  }

  value(depth = 0): PdfValue {
    if (depth > MAX_NESTING) throw new PdfSyntaxError('nested too deep');
    this.skipSpace();
    if (this.pos >= this.end) throw new PdfSyntaxError('unexpected end');
    const ch = this.text[this.pos]!;
    if (ch === '<') {
      if (this.text[this.pos + 1] === '<') return this.dictionary(depth);
      return this.hexString();
    }
    if (ch === '[') return this.array(depth);
    if (ch === '(') return this.literalString();
    if (ch === '/') return this.name();
    const token = this.token();
    if (token === 'true') return true;
    if (token === 'false') return false;
    if (token === 'null') return null;
    if (!isPdfNumber(token)) throw new PdfSyntaxError(`unexpected ${token.slice(0, 20) || ch}`);
    const number = Number(token);
    if (/^\d+$/.test(token)) {
      // `n g R`: an indirect reference, else the integer alone.
      const after = this.pos;
      this.skipSpace();
      const generation = this.token();
      if (/^\d+$/.test(generation) && this.takeKeyword('R')) return new PdfRef(number, Number(generation));
      this.pos = after;
    }
    return number;
  }

  private token(): string {
    const start = this.pos;
    while (this.pos < this.end && isRegular(this.text.charCodeAt(this.pos))) this.pos++;
    return this.text.slice(start, this.pos);
  }

  private name(): PdfName {
    this.pos++;
    const raw = this.token();
    return new PdfName(raw.includes('#') ? raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : raw);
  }

  private dictionary(depth: number): PdfDict {
    this.pos += 2;
    const dict: PdfDict = new Map();
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.end) throw new PdfSyntaxError('unterminated dictionary');
      if (this.text.startsWith('>>', this.pos)) {
        this.pos += 2;
        return dict;
      }
      if (this.text[this.pos] !== '/') throw new PdfSyntaxError('dictionary key is not a name');
      const key = this.name().name;
      dict.set(key, this.value(depth + 1));
    }
  }

  private array(depth: number): PdfValue[] {
    this.pos++;
    const items: PdfValue[] = [];
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.end) throw new PdfSyntaxError('unterminated array');
      if (this.text[this.pos] === ']') {
        this.pos++;
        return items;
      }
      items.push(this.value(depth + 1));
    }
  }

  private hexString(): PdfString {
    let close = this.pos + 1;
    while (close < this.end && this.text[close] !== '>') close++;
    if (close >= this.end) {
      // Searched to the end: the scan resumes there, not here (a run of open `<` must not be searched again each).
      this.pos = this.end;
      throw new PdfSyntaxError('unterminated hex string');
    }
    const hex = this.text.slice(this.pos + 1, close).replace(/[^0-9A-Fa-f]/g, '');
    this.pos = close + 1;
    return new PdfString(Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex').toString('latin1'));
  }

  /** Escapes, octal codes, line continuations and balanced brackets (§7.3.4.2). */
  private literalString(): PdfString {
    let out = '';
    let depth = 1;
    let i = this.pos + 1;
    for (; i < this.end; i++) {
      const ch = this.text[i]!;
      if (ch === '\\') {
        const next = this.text[++i] ?? '';
        if (next >= '0' && next <= '7') {
          let digits = next;
          while (digits.length < 3 && this.text[i + 1]! >= '0' && this.text[i + 1]! <= '7') digits += this.text[++i];
          out += String.fromCharCode(parseInt(digits, 8) & 0xff);
        } else if (next === '\r' || next === '\n') {
          if (next === '\r' && this.text[i + 1] === '\n') i++;
        } else out += ESCAPES[next] ?? next;
      } else if (ch === '(') {
        depth++;
        out += ch;
      } else if (ch === ')') {
        if (--depth === 0) {
          this.pos = i + 1;
          return new PdfString(out);
        }
        out += ch;
      } else out += ch;
    }
    this.pos = i;
    throw new PdfSyntaxError('unterminated string');
  }
}

/** A text string's characters (§7.9.2.2): UTF-16BE after its byte-order mark, UTF-8 after its mark, else PDFDocEncoding (read as latin1). */
export function pdfTextString(value: PdfValue | undefined): string | null {
  if (!(value instanceof PdfString)) return null;
  const raw = value.raw;
  if (raw.charCodeAt(0) === 0xfe && raw.charCodeAt(1) === 0xff) return Buffer.from(raw.slice(2, raw.length - (raw.length % 2)), 'latin1').swap16().toString('utf16le');
  if (raw.startsWith('\xef\xbb\xbf')) return Buffer.from(raw.slice(3), 'latin1').toString('utf8');
  return raw;
}
