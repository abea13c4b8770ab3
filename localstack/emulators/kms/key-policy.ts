/**
 * Key policies: the default one KMS attaches when CreateKey has no Policy, and the checks KMS makes on a
 * policy it is given.
 *
 * - Default: "If you do not provide a key policy, KMS attaches a default key policy to the KMS key"
 *   (https://docs.aws.amazon.com/kms/latest/APIReference/API_CreateKey.html, Policy), the one that "gives
 *   the AWS account that owns the KMS key full access" with statement id "Enable IAM User Permissions"
 *   (https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-default.html).
 * - PolicyType: "Length Constraints: Minimum length of 1. Maximum length of 131072. Pattern:
 *   [\u0009\u000A\u000D\u0020-\u00FF]+" (API_PutKeyPolicy.html) -> ValidationException.
 * - Size: the key policy document size is a resource quota of 32 KB, the one quota that is not adjustable
 *   (https://docs.aws.amazon.com/kms/latest/developerguide/limits.html,
 *   https://docs.aws.amazon.com/kms/latest/developerguide/resource-limits.html; the API reference of the
 *   SDKs: "The policy size limit is 32 KiB (32768 bytes)"); a request over a resource quota generates "an
 *   `LimitExceededException` error message" (resource-limits.html).
 * - "Each statement in the key policy must contain one or more principals" (API_CreateKey.html, Policy);
 *   a document that is not a JSON policy is MalformedPolicyDocumentException ("the specified policy is
 *   not syntactically or semantically correct").
 * Not checked (the choice is ours): the lockout safety check ("The key policy must allow the calling
 * principal to make a subsequent PutKeyPolicy request"), which needs the caller's identity; the IAM
 * evaluator of the local cloud judges requests against the policy instead.
 */
import { constraint, KmsError } from './errors';
import { reqString } from './input';
import { isObject, type JsonObject } from './types';

export const MAX_KEY_POLICY_BYTES = 32768;
const POLICY_PATTERN = /^[\u0009\u000A\u000D\u0020-\u00FF]+$/;

export function defaultKeyPolicy(accountId: string): string {
  return JSON.stringify({
    Version: '2012-10-17',
    Id: 'key-default-1',
    Statement: [
      {
        Sid: 'Enable IAM User Permissions',
        Effect: 'Allow',
        Principal: { AWS: `arn:aws:iam::${accountId}:root` },
        Action: 'kms:*',
        Resource: '*',
      },
    ],
  });
}

/** The Policy member of CreateKey/PutKeyPolicy, checked as KMS checks it; returned unchanged. */
export function readKeyPolicy(body: JsonObject): string {
  const policy = reqString(body, 'Policy', 1, 131072);
  if (!POLICY_PATTERN.test(policy)) {
    throw constraint('Policy', policy, 'Member must satisfy regular expression pattern: [\\u0009\\u000A\\u000D\\u0020-\\u00FF]+');
  }
  if (policy.length > MAX_KEY_POLICY_BYTES) {
    throw new KmsError('LimitExceededException', `The key policy is ${policy.length} bytes, over the ${MAX_KEY_POLICY_BYTES}-byte quota.`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(policy);
  } catch {
    throw new KmsError('MalformedPolicyDocumentException', 'The new key policy is not valid JSON.');
  }
  const statements = isObject(doc) ? doc.Statement : undefined;
  const list = Array.isArray(statements) ? statements : isObject(statements) ? [statements] : undefined;
  if (!list || list.length === 0) throw new KmsError('MalformedPolicyDocumentException', 'The key policy has no Statement.');
  for (const statement of list) {
    if (!isObject(statement) || !hasPrincipal(statement)) {
      throw new KmsError('MalformedPolicyDocumentException', 'Policy contains a statement with no principal.');
    }
  }
  return policy;
}

/** PolicyName (PolicyNameType, pattern [\w]+): "The only valid name is default". Another name: NotFoundException (our choice). */
export function readPolicyName(body: JsonObject): void {
  const v = body.PolicyName;
  if (v === undefined || v === null) return;
  const name = reqString(body, 'PolicyName', 1, 128);
  if (!/^\w+$/.test(name)) throw constraint('PolicyName', name, 'Member must satisfy regular expression pattern: [\\w]+');
  if (name !== 'default') throw new KmsError('NotFoundException', `No such policy exists: ${name}. The only key policy name is default.`);
}

function hasPrincipal(statement: JsonObject): boolean {
  const principal = statement.Principal ?? statement.NotPrincipal;
  return principal === '*' || (isObject(principal) && Object.keys(principal).length > 0);
}
