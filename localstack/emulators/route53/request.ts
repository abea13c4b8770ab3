/**
 * What the emulator reads of a request before any action: the SigV4 Authorization header's access key
 * id (the signature is not checked), and the XML body of the actions that take one.
 */
import { Route53Fault } from './errors';
import { parseXml, XmlError, type XmlElement } from './xml';

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

/** The body's root element; 400 InvalidInput when it is not XML. */
export function readXmlBody(raw: Buffer): XmlElement {
  try {
    return parseXml(raw.toString('utf8'));
  } catch (error) {
    throw new Route53Fault(
      400,
      'InvalidInput',
      `The XML document is malformed: ${error instanceof XmlError ? error.message : String(error)}`,
    );
  }
}
