/**
 * A regional custom domain name's target: `d-<id>.execute-api.<region>.amazonaws.com`, in the hosted zone
 * of the region's API Gateway regional endpoints (the Route 53 alias target), as
 * https://docs.aws.amazon.com/general/latest/gr/apigateway.html lists them ("Route 53 Hosted Zone ID" of
 * the regional endpoints). The regions the local cloud may run in; another one is refused at start.
 */
import { randomBytes } from 'node:crypto';

const REGIONAL_HOSTED_ZONE_IDS: Record<string, string> = {
  'us-east-1': 'Z1UJRXOUMOOFQ8',
  'us-east-2': 'ZOJJZC49E0EPZ',
  'us-west-2': 'Z2OJLYMUO9EFXC',
  'eu-west-1': 'ZLY8HYME6SFDD',
};

export function regionalHostedZoneId(region: string): string {
  const id = REGIONAL_HOSTED_ZONE_IDS[region];
  if (!id) throw new Error(`the API Gateway emulator knows no regional hosted zone id for ${region}`);
  return id;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const randomId = (length: number): string => [...randomBytes(length)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');

/** A new target name: `d-` and ten lower-case letters and digits. */
export const newApiGatewayDomainName = (region: string): string => `d-${randomId(10)}.execute-api.${region}.amazonaws.com`;
