import { describe, expect, it } from 'vitest';
import type { RuleResult } from '../../../../app/invoice/rules/index.js';
import { emptyFieldValues } from '../../../../app/invoice/review/index.js';
import { byRule, clearMessage, summarizeFailures, xmlDisagreements } from './failureSummary.js';

const rule = (name: string, status: RuleResult['status']): RuleResult => ({ rule: name, title: name, status, message: `${name} says`, fields: [] });

describe('summarizeFailures', () => {
  it('splits failures into failing rules and missing required fields, keeping each rule\'s index', () => {
    const summary = summarizeFailures([rule('BR-02', 'fail'), rule('BR-CO-10', 'pass'), rule('BR-CO-15', 'fail'), rule('BR-14', 'fail')], ['total'], true);
    expect(summary.failing.map((r) => [r.rule, r.index])).toEqual([['BR-CO-15', 2]]);
    expect(summary.missing.map((r) => [r.rule, r.index])).toEqual([['BR-02', 0], ['BR-14', 3]]);
    expect(summary.disagreements).toEqual(['total']);
    expect(summary.clear).toBe(false);
  });
  it('an unread page is not "clear": it has no results yet', () => {
    expect(summarizeFailures([], [], false)).toMatchObject({ read: false, clear: false });
    expect(summarizeFailures([rule('BR-02', 'pass')], [], true).clear).toBe(true);
  });
  it('says the page and its XML agree only where the document carries an XML (a scanned receipt has none)', () => {
    const scan = summarizeFailures([rule('BR-CO-15', 'pass')], [], true);
    expect(scan.clear).toBe(true);
    expect(clearMessage(scan)).toBe('Every rule that applies holds.');
    expect(clearMessage(summarizeFailures([rule('BR-CO-15', 'pass')], [], true, { withXml: true }))).toBe('Every rule that applies holds; page and XML agree.');
  });
});

describe('summarizeFailures with the payment fields', () => {
  it('lists a failing payment rule with the page rules, selecting its field; the page is no longer clear', () => {
    const iban: RuleResult = { rule: 'IBAN', title: 'IBAN', status: 'fail', message: 'IBAN DE89…01: mod 97.', fields: ['payment.iban'] };
    const summary = summarizeFailures([], [], true, { documentRules: [iban] });
    expect(summary.clear).toBe(false);
    expect(summary.failing).toEqual([{ index: -1, rule: 'IBAN', message: 'IBAN DE89…01: mod 97.', field: 'payment.iban' }]);
    expect(summarizeFailures([], [], true, { documentRules: [] }).clear).toBe(true);
  });
});

describe('summarizeFailures with duplicates', () => {
  it('a page that looks like another invoice is not clear, even with every rule holding', () => {
    const duplicate = { documentName: 'acme-0042.pdf', pageId: 'p9', why: 'Same supplier and invoice number as' };
    const summary = summarizeFailures([rule('BR-02', 'pass')], [], true, { duplicates: [duplicate] });
    expect(summary.duplicates).toEqual([duplicate]);
    expect(summary.clear).toBe(false);
    expect(summarizeFailures([rule('BR-02', 'pass')], [], true, {}).duplicates).toEqual([]);
  });
});

describe('xmlDisagreements', () => {
  it('lists fields printed on the page whose value differs from the XML, amounts to the half cent', () => {
    const values = { ...emptyFieldValues(), total: 119, tax: 19.001, buyer: 'ACME GmbH', seller: null };
    const xml = { total: 129, tax: 19, buyer: 'acme gmbh ', seller: 'Someone' };
    expect(xmlDisagreements(values, xml)).toEqual(['total']);
    expect(xmlDisagreements(values, null)).toEqual([]);
  });

  it('leaves out a difference whose XML value the page prints too (a reading doubt, as the approval counts it)', () => {
    const values = { ...emptyFieldValues(), total: 119, issue_date: '2013-08-01' };
    const xml = { total: 129, issue_date: '2013-09-16' };
    expect(xmlDisagreements(values, xml, 'Beleg-Datum 16.09.2013 Bestell-Datum 01.08.2013 Summe 119,00')).toEqual(['total']);
  });
});

describe('byRule', () => {
  it('gives a rule failing several times one entry with its count, at its first failure', () => {
    const summary = summarizeFailures([rule('LINE', 'fail'), rule('BR-CO-10', 'fail'), rule('LINE', 'fail')], [], true);
    expect(byRule(summary.failing).map((r) => [r.rule, r.index, r.count])).toEqual([['LINE', 0, 2], ['BR-CO-10', 1, 1]]);
  });
});

describe('summarizeFailures: one list of findings', () => {
  it('never "all hold" where no field was read (an unreadable receipt) — nor above fatal EN 16931 failures', () => {
    expect(summarizeFailures([rule('BR-CO-15', 'pass')], [], true, { fieldsRead: false })).toMatchObject({ clear: false, fieldsRead: false });
    const fatal: RuleResult = { rule: 'BR-CO-16', title: 'EN 16931', status: 'fail', message: 'Amount due …', fields: ['amount_due'] };
    const summary = summarizeFailures([rule('BR-CO-15', 'pass')], [], true, { documentRules: [fatal] });
    expect(summary.clear).toBe(false);
    expect(summary.failing.map((r) => r.rule)).toEqual(['BR-CO-16']);
  });
});
