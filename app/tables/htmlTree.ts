/**
 * A minimal HTML element tree built with htmlparser2's streaming parser. Tables and TEDS need only tags, attributes,
 * children and text; a full DOM (and its types) would be more than they use. Pure: no DOM, no I/O.
 */
import { Parser } from 'htmlparser2';

export interface HtmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: HtmlNode[];
}
export type HtmlNode = HtmlElement | string;

export function isElement(node: HtmlNode): node is HtmlElement {
  return typeof node !== 'string';
}

/** Parses an HTML fragment or document into a synthetic root element with tag `#root`. Never throws. */
export function parseHtml(html: string): HtmlElement {
  const root: HtmlElement = { tag: '#root', attrs: {}, children: [] };
  const stack: HtmlElement[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const element: HtmlElement = { tag: name, attrs: { ...attribs }, children: [] };
        stack[stack.length - 1]!.children.push(element);
        stack.push(element);
      },
      ontext(text) {
        const top = stack[stack.length - 1]!;
        const last = top.children[top.children.length - 1];
        if (typeof last === 'string') top.children[top.children.length - 1] = last + text;
        else top.children.push(text);
      },
      onclosetag(name) {
        // htmlparser2 reports implied closes too; pop to the matching open element, ignore stray end tags.
        for (let i = stack.length - 1; i > 0; i--) {
          if (stack[i]!.tag === name) {
            stack.length = i;
            return;
          }
        }
      },
    },
    { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return root;
}

/** All descendants (depth first, document order) with the given tag; does not descend into matches when `stopAtMatch`. */
export function findAll(node: HtmlElement, tag: string, stopAtMatch = false): HtmlElement[] {
  const found: HtmlElement[] = [];
  const visit = (element: HtmlElement): void => {
    for (const child of element.children) {
      if (!isElement(child)) continue;
      if (child.tag === tag) {
        found.push(child);
        if (stopAtMatch) continue;
      }
      visit(child);
    }
  };
  visit(node);
  return found;
}

const blockBreakTags = new Set(['br', 'p', 'div', 'li']);

/** Text content; `<br>` and block children become a single space. */
export function textContent(node: HtmlNode): string {
  if (!isElement(node)) return node;
  let text = '';
  for (const child of node.children) {
    if (isElement(child) && blockBreakTags.has(child.tag)) text += ' ' + textContent(child) + ' ';
    else text += textContent(child);
  }
  return text;
}
