/**
 * Differential comparison of a validator against the official EN 16931 XSLT: for each document, the set of fired
 * rules (id + flag) of both; tallied per rule so a report can say where they agree and where not.
 */
import { firedRuleKeys } from './en16931Oracle.js';

export interface FiredRule {
  id: string;
  flag: string;
}

export interface RuleTally {
  /** Documents where the oracle fired the rule (with this flag). */
  oracle: number;
  engine: number;
  /** Documents where exactly one of them fired it. */
  onlyOracle: number;
  onlyEngine: number;
}

/** A known disagreement: tolerated by the test, listed in docs/en16931.md with the same reason. */
export interface AllowedDisagreement {
  /** `RULE-ID:flag` as firedRuleKeys writes it, or a pattern over such keys (a whole family). */
  rule: string | RegExp;
  reason: string;
}

export interface DocumentComparison {
  name: string;
  /** Keys fired by only one side, minus allow-listed ones. */
  onlyOracle: string[];
  onlyEngine: string[];
  /** Disagreements on allow-listed rules only. */
  allowed: string[];
}

export class DifferentialTally {
  readonly rules = new Map<string, RuleTally>();
  documents = 0;
  agreeing = 0;
  /** Documents whose only disagreements are allow-listed. */
  allowedOnly = 0;
  readonly disagreements: DocumentComparison[] = [];

  constructor(private readonly allowList: readonly AllowedDisagreement[] = []) {}

  add(name: string, oracle: readonly FiredRule[], engine: readonly FiredRule[]): DocumentComparison {
    const oracleKeys = new Set(firedRuleKeys(oracle));
    const engineKeys = new Set(firedRuleKeys(engine));
    for (const key of new Set([...oracleKeys, ...engineKeys])) {
      const tally = this.rules.get(key) ?? { oracle: 0, engine: 0, onlyOracle: 0, onlyEngine: 0 };
      const inOracle = oracleKeys.has(key);
      const inEngine = engineKeys.has(key);
      if (inOracle) tally.oracle++;
      if (inEngine) tally.engine++;
      if (inOracle && !inEngine) tally.onlyOracle++;
      if (inEngine && !inOracle) tally.onlyEngine++;
      this.rules.set(key, tally);
    }
    const onlyOracle = [...oracleKeys].filter((k) => !engineKeys.has(k));
    const onlyEngine = [...engineKeys].filter((k) => !oracleKeys.has(k));
    const comparison: DocumentComparison = {
      name,
      onlyOracle: onlyOracle.filter((k) => !this.isAllowed(k)),
      onlyEngine: onlyEngine.filter((k) => !this.isAllowed(k)),
      allowed: [...onlyOracle, ...onlyEngine].filter((k) => this.isAllowed(k)),
    };
    this.documents++;
    if (onlyOracle.length === 0 && onlyEngine.length === 0) this.agreeing++;
    else if (comparison.onlyOracle.length === 0 && comparison.onlyEngine.length === 0) this.allowedOnly++;
    else this.disagreements.push(comparison);
    return comparison;
  }

  isAllowed(key: string): boolean {
    return this.allowList.some((a) => (typeof a.rule === 'string' ? a.rule === key : a.rule.test(key)));
  }

  /** Share of documents with identical fired-rule sets once allow-listed disagreements are set aside. */
  agreementOutsideAllowList(): number {
    return this.documents === 0 ? 1 : (this.agreeing + this.allowedOnly) / this.documents;
  }

  /** Share of documents with identical fired-rule sets. */
  agreement(): number {
    return this.documents === 0 ? 1 : this.agreeing / this.documents;
  }

  /** One line per rule that fired on either side: documents fired by oracle / engine, and each side alone. */
  table(options: { withAllowed?: boolean } = {}): string {
    const rows = [...this.rules.entries()].filter(([key]) => options.withAllowed || !this.isAllowed(key)).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
    const width = Math.max(12, ...rows.map(([key]) => key.length));
    const lines = [`${'rule:flag'.padEnd(width)}  oracle  engine  only-oracle  only-engine  agreement`];
    for (const [key, t] of rows) {
      const fired = t.oracle + t.onlyEngine;
      const agreement = fired === 0 ? 1 : (fired - t.onlyOracle - t.onlyEngine) / fired;
      lines.push(
        `${key.padEnd(width)}  ${String(t.oracle).padStart(6)}  ${String(t.engine).padStart(6)}  ${String(t.onlyOracle).padStart(11)}  ${String(t.onlyEngine).padStart(11)}  ${(agreement * 100).toFixed(1).padStart(8)} %`,
      );
    }
    return lines.join('\n');
  }

  summary(label: string): string {
    return (
      `${label}: ${this.documents} documents, ${this.agreeing} identical fired-rule sets ` +
      `(${(this.agreement() * 100).toFixed(2)} %), ${this.allowedOnly} differ only on allow-listed rules, ` +
      `${this.disagreements.length} disagree outside them (agreement ${(this.agreementOutsideAllowList() * 100).toFixed(2)} %); ` +
      `${this.rules.size} rule:flag pairs fired`
    );
  }
}
