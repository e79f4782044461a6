/** CII forms of the rules whose CII schematron test differs in substance from the UBL one (filled in below). */
import type { Rule } from './rule.js';

export const ciiOverrides = new Map<string, Rule>();
