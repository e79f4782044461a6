import type { SemanticInvoice } from '../model/semanticInvoice.js';
import type { XmlNode } from './terms.js';
export function readCiiInvoice(_root: XmlNode, _zugferd1: boolean): SemanticInvoice {
  throw new Error('todo');
}
