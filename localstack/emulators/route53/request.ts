/**
 * What the emulator reads of a request before any action: the SigV4 Authorization header's access key
 * id (the signature is not checked), and the XML body of the actions that take one, read with
 * fast-xml-parser (elements and their text; attributes and namespace prefixes ignored).
 */
import { type EntityDecoderOptions, XMLParser, XMLValidator } from 'fast-xml-parser';
import { Route53Fault } from './errors';

/**
 * Throws unless the request names an access key (403 MissingAuthenticationToken) that is one of
 * `accessKeys` when given (403 InvalidClientTokenId, as Route 53 answers an unknown key).
 */
export function authenticate(authorization: string | undefined, accessKeys: readonly string[] | undefined): void {
  const credential = /Credential=([^/,\s]+)\//.exec(authorization ?? '')?.[1];
  if (!credential) throw new Route53Fault(403, 'MissingAuthenticationToken', 'Missing Authentication Token');
  if (accessKeys && !accessKeys.includes(credential)) {
    throw new Route53Fault(403, 'InvalidClientTokenId', 'The security token included in the request is invalid.');
  }
}

/** An element as the parser gives it: its child elements by name (a list when repeated), its text at `#text`. */
export interface XmlElement {
  [name: string]: XmlValue;
}
/** A text-only element is its text (trimmed; '' when empty). */
type XmlValue = string | XmlElement | (string | XmlElement)[];

/** The request lists (ChangeBatch's Changes, a set's ResourceRecords): read as lists even with one element. */
const LISTS = ['.Changes.Change', '.ResourceRecords.ResourceRecord'];

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Text as XML 1.0 decodes it: the five predefined entities and numeric character references (the SDK
 * writes a newline as `&#x0A;`); any other `&name;` stays as written. No entity a document declares is
 * ever registered (the DOCTYPE is refused before parsing anyway), so nothing expands.
 */
const entityDecoder: EntityDecoderOptions = {
  decode: (text) =>
    text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
      if (entity[0] !== '#') return XML_ENTITIES[entity] ?? whole;
      return String.fromCodePoint(entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)));
    }),
  addInputEntities: () => undefined,
  setExternalEntities: () => undefined,
  reset: () => undefined,
  setXmlVersion: () => undefined,
};

const parser = new XMLParser({
  ignoreAttributes: true, // xmlns and the like: Route 53's request elements carry none the emulator reads
  removeNSPrefix: true, // <r53:Name> is Name
  parseTagValue: false, // values stay strings ("0300", "10 mx.example" are the action's to read)
  trimValues: true,
  // Entities: XML's own and numeric references, through entityDecoder above (processEntities: false would
  // leave `&amp;` as written). Not htmlEntities (&nbsp; and the like are no XML entities; and it is what
  // turns numeric references on in the default decoder, HTML's names with them). A DOCTYPE's entities would
  // reach entityDecoder.addInputEntities, which drops them; readXmlBody refuses the DOCTYPE first anyway.
  processEntities: true,
  entityDecoder,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (_name, jPath) => LISTS.some((list) => String(jPath).endsWith(list)),
});

/** A markup declaration (`<!DOCTYPE`, `<!ENTITY`, ...): Route 53's requests have none, and none is read. */
const DECLARATION = /<!(?!--|\[CDATA\[)/;

const malformed = (detail: string) => new Route53Fault(400, 'InvalidInput', `The XML document is malformed: ${detail}`);

/**
 * The body's root element; 400 InvalidInput when it is not well-formed XML with one root (fast-xml-parser's
 * validator: tags matched and closed, no text outside the root, though it lets text after an empty `<Root/>`
 * pass, a body no action finds anything in) or declares anything (DOCTYPE refused: no entity of a request
 * is ever expanded, no external one fetched).
 */
export function readXmlBody(raw: Buffer): XmlElement {
  const source = raw.toString('utf8');
  if (DECLARATION.test(source)) throw malformed('DOCTYPE and other declarations are not accepted');
  const valid = XMLValidator.validate(source);
  if (valid !== true) throw malformed(`${valid.err.msg} (line ${valid.err.line})`);
  let parsed: XmlElement;
  try {
    parsed = parser.parse(source) as XmlElement;
  } catch (error) {
    throw malformed((error as Error).message);
  }
  const roots = Object.values(parsed);
  if (roots.length !== 1 || Array.isArray(roots[0])) throw malformed('more than one root element');
  return asElement(roots[0])!;
}

/** The first of `value` (an element named more than once is its first) as an element; text-only is `#text`. */
function asElement(value: XmlValue | undefined): XmlElement | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? { '#text': first } : first;
}

export const child = (element: XmlElement | undefined, name: string): XmlElement | undefined => asElement(element?.[name]);

export function children(element: XmlElement | undefined, name: string): XmlElement[] {
  const value = element?.[name];
  return (value === undefined ? [] : Array.isArray(value) ? value : [value]).map((one) => asElement(one)!);
}

/** The text of the child `name`, trimmed; undefined when there is no such child. */
export function textOf(element: XmlElement | undefined, name: string): string | undefined {
  const found = child(element, name);
  if (found === undefined) return undefined;
  const text = found['#text'];
  return typeof text === 'string' ? text.trim() : '';
}
