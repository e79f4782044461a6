/**
 * Validation time against the invoice's size, for `npm run bench:validate`: one real UBL invoice of ../shared/testdata
 * grown to sizes from 1 KB to 10 MB by repeating its first invoice line (each copy with its own BT-126, so every line
 * is a full, distinct line), plus the two shapes of issue 36 — 16,000 empty lines and 6,000 full lines. Per size: the
 * engine from XML text to report (read, business rules, syntax rules), ms per invoice, per 1,000 lines and per MB;
 * the official XSLT (saxon-js) on the same text where it is at most `oracleMaxKb`, and the ratio.
 */
import { validateEInvoiceXml } from '../../app/en16931/index.js';
import type { En16931Oracle } from '../../testing/en16931Oracle.js';

export interface SizeCase {
  name: string;
  xml: string;
  lines: number;
}

export interface SizeTimes {
  case: string;
  kb: number;
  lines: number;
  'engine ms': number;
  /** CPU time of the same median run: what the shared machine's load does not inflate. */
  'engine cpu ms': number;
  'engine ms / 1,000 lines': number;
  'engine ms / MB': number;
  'oracle ms': number | null;
  'oracle / engine': number | null;
  valid: boolean;
  'same verdict as oracle': boolean | null;
}

const TARGET_KB = [1, 10, 100, 1024, 10 * 1024 - 64];

/** Grows a UBL invoice to about `kb` kilobytes by copies of its first line; null when it has no line. */
function grown(base: string, kb: number): SizeCase | null {
  const start = base.indexOf('<cac:InvoiceLine>');
  const end = base.indexOf('</cac:InvoiceLine>', start);
  if (start < 0 || end < 0) return null;
  const line = base.slice(start, end + '</cac:InvoiceLine>'.length);
  const head = base.slice(0, start);
  const tail = base.slice(base.lastIndexOf('</cac:InvoiceLine>') + '</cac:InvoiceLine>'.length);
  const count = Math.max(1, Math.floor((kb * 1024 - head.length - tail.length) / line.length));
  const lines = Array.from({ length: count }, (_, i) => line.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, `<cbc:ID>${i + 1}</cbc:ID>`));
  return { name: `${kb >= 1024 ? `${Math.round(kb / 1024)} MB` : `${kb} KB`} (full lines)`, xml: head + lines.join('') + tail, lines: count };
}

export function sizeCases(base: string): SizeCase[] {
  const cases = TARGET_KB.map((kb) => grown(base, kb)).filter((c): c is SizeCase => c !== null);
  const start = base.indexOf('<cac:InvoiceLine>');
  const end = base.lastIndexOf('</cac:InvoiceLine>') + '</cac:InvoiceLine>'.length;
  if (start >= 0) {
    cases.push({ name: '16,000 empty lines', xml: base.slice(0, start) + '<cac:InvoiceLine></cac:InvoiceLine>'.repeat(16_000) + base.slice(end), lines: 16_000 });
    const line = base.slice(start, base.indexOf('</cac:InvoiceLine>', start) + '</cac:InvoiceLine>'.length);
    const lines = Array.from({ length: 6000 }, (_, i) => line.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, `<cbc:ID>${i + 1}</cbc:ID>`));
    cases.push({ name: '6,000 full lines', xml: base.slice(0, start) + lines.join('') + base.slice(end), lines: 6000 });
  }
  return cases;
}

function timeOnce(work: () => unknown): number {
  return timeAndCpu(work).ms;
}

/** Wall and CPU milliseconds of one run (CPU: this process's user + system time). */
function timeAndCpu(work: () => unknown): { ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  work();
  const used = process.cpuUsage(cpu);
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, cpuMs: (used.user + used.system) / 1000 };
}

function round(value: number): number {
  return Number(value.toFixed(value < 10 ? 2 : 0));
}

/** Median of `reps` runs (after one warm-up) for the engine; one run for the oracle (seconds per run at 10 MB). */
export function measureSizes(cases: SizeCase[], oracle: En16931Oracle, reps: number, oracleMaxKb: number): SizeTimes[] {
  return cases.map((c) => {
    validateEInvoiceXml(c.xml, { rules: 'en16931' });
    const runs = Array.from({ length: reps }, () => timeAndCpu(() => validateEInvoiceXml(c.xml, { rules: 'en16931' }))).sort((a, b) => a.ms - b.ms);
    const { ms: engineMs, cpuMs } = runs[Math.floor(runs.length / 2)]!;
    const report = validateEInvoiceXml(c.xml, { rules: 'en16931' });
    const kb = c.xml.length / 1024;
    let oracleMs: number | null = null;
    let same: boolean | null = null;
    if (kb <= oracleMaxKb) {
      let oracleReport: ReturnType<En16931Oracle['validate']> | null = null;
      oracleMs = timeOnce(() => {
        try {
          oracleReport = oracle.validate(c.xml);
        } catch {
          oracleReport = null; // a dynamic error in the XSLT: no verdict to compare
        }
      });
      const official = oracleReport as ReturnType<En16931Oracle['validate']> | null;
      same = official === null ? null : !official.failed.some((f) => f.flag === 'fatal') === report.valid;
    }
    return {
      case: c.name,
      kb: Math.round(kb),
      lines: c.lines,
      'engine ms': round(engineMs),
      'engine cpu ms': round(cpuMs),
      'engine ms / 1,000 lines': round((engineMs / c.lines) * 1000),
      'engine ms / MB': round(engineMs / (kb / 1024)),
      'oracle ms': oracleMs === null ? null : round(oracleMs),
      'oracle / engine': oracleMs === null ? null : round(oracleMs / engineMs),
      valid: report.valid,
      'same verdict as oracle': same,
    };
  });
}
