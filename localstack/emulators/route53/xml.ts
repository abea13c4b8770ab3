/**
 * Just enough XML for Route 53's REST-XML: parsing request bodies (elements, text, entities; attributes
 * and namespaces ignored) and writing answers.
 */

export interface XmlElement {
  name: string;
  children: XmlElement[];
  text: string;
}

export class XmlError extends Error {}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity.startsWith('#x') || entity.startsWith('#X')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    return ENTITIES[entity] ?? whole;
  });
}

/** The document's root element. Throws XmlError on anything it cannot read. */
export function parseXml(source: string): XmlElement {
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const localName = (name: string) => name.slice(name.indexOf(':') + 1);
  while (i < source.length) {
    const lt = source.indexOf('<', i);
    const text = source.slice(i, lt === -1 ? source.length : lt);
    if (stack.length > 0) stack[stack.length - 1]!.text += decode(text);
    else if (text.trim() !== '') throw new XmlError('text outside the root element');
    if (lt === -1) break;
    if (source.startsWith('<?', lt)) {
      const end = source.indexOf('?>', lt);
      if (end === -1) throw new XmlError('unterminated declaration');
      i = end + 2;
    } else if (source.startsWith('<!--', lt)) {
      const end = source.indexOf('-->', lt);
      if (end === -1) throw new XmlError('unterminated comment');
      i = end + 3;
    } else if (source.startsWith('<![CDATA[', lt)) {
      const end = source.indexOf(']]>', lt);
      if (end === -1 || stack.length === 0) throw new XmlError('bad CDATA section');
      stack[stack.length - 1]!.text += source.slice(lt + 9, end);
      i = end + 3;
    } else if (source.startsWith('</', lt)) {
      const end = source.indexOf('>', lt);
      if (end === -1) throw new XmlError('unterminated end tag');
      const name = localName(source.slice(lt + 2, end).trim());
      const open = stack.pop();
      if (!open || open.name !== name) throw new XmlError(`unexpected </${name}>`);
      i = end + 1;
    } else {
      const end = source.indexOf('>', lt);
      if (end === -1) throw new XmlError('unterminated start tag');
      const inside = source.slice(lt + 1, end);
      const selfClosing = inside.endsWith('/');
      const name = localName((selfClosing ? inside.slice(0, -1) : inside).trim().split(/\s+/)[0] ?? '');
      if (!name) throw new XmlError('empty tag name');
      const element: XmlElement = { name, children: [], text: '' };
      if (stack.length > 0) stack[stack.length - 1]!.children.push(element);
      else if (root) throw new XmlError('more than one root element');
      else root = element;
      if (!selfClosing) stack.push(element);
      i = end + 1;
    }
  }
  if (stack.length > 0) throw new XmlError(`unclosed <${stack[stack.length - 1]!.name}>`);
  if (!root) throw new XmlError('no root element');
  return root;
}

export function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return element?.children.find((c) => c.name === name);
}

export function children(element: XmlElement | undefined, name: string): XmlElement[] {
  return element?.children.filter((c) => c.name === name) ?? [];
}

export function textOf(element: XmlElement | undefined, name: string): string | undefined {
  const found = child(element, name);
  return found === undefined ? undefined : found.text.trim();
}

// ---- writing ----

export type XmlNode = { name: string; value: string | number | boolean } | { name: string; children: XmlNode[] };

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`);
}

function render(node: XmlNode): string {
  if ('children' in node) return `<${node.name}>${node.children.map(render).join('')}</${node.name}>`;
  return `<${node.name}>${escapeXml(String(node.value))}</${node.name}>`;
}

export const ROUTE53_NAMESPACE = 'https://route53.amazonaws.com/doc/2013-04-01/';

/** A whole answer document: `<Root xmlns="…">children</Root>`. */
export function document(root: string, nodes: XmlNode[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="${ROUTE53_NAMESPACE}">${nodes.map(render).join('')}</${root}>`;
}

export const leaf = (name: string, value: string | number | boolean): XmlNode => ({ name, value });
export const node = (name: string, nodes: XmlNode[]): XmlNode => ({ name, children: nodes });
