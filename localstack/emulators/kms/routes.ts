/**
 * The routing table of the KMS emulator. KMS speaks AWS JSON 1.1
 * (https://smithy.io/2.0/aws/protocols/aws-json-1_1-protocol.html): every request is a POST to `/` naming
 * its operation in `X-Amz-Target: TrentService.<Operation>`, with a JSON body handed to the operation
 * (a module of ./operations/). An operation marked `mutates` is answered only once its change is on disk
 * (./server.ts). Any other target is UnknownOperationException at once.
 */
import * as op from './operations';
import type { KmsState } from './state';
import type { JsonObject } from './types';

export interface KmsRoute {
  mutates: boolean;
  operation: (state: KmsState, body: JsonObject) => JsonObject;
}

const TARGET_PREFIX = 'TrentService.';

const reads = (operation: KmsRoute['operation']): KmsRoute => ({ mutates: false, operation });
const changes = (operation: KmsRoute['operation']): KmsRoute => ({ mutates: true, operation });

const ROUTES: Record<string, KmsRoute> = {
  CreateKey: changes(op.createKey),
  DescribeKey: reads(op.describeKey),
  EnableKey: changes(op.enableKey),
  DisableKey: changes(op.disableKey),
  GetKeyPolicy: reads(op.getKeyPolicy),
  PutKeyPolicy: changes(op.putKeyPolicy),
  EnableKeyRotation: changes(op.enableKeyRotation),
  DisableKeyRotation: changes(op.disableKeyRotation),
  GetKeyRotationStatus: reads(op.getKeyRotationStatus),
  CreateAlias: changes(op.createAlias),
  DeleteAlias: changes(op.deleteAlias),
  ListAliases: reads(op.listAliases),
  Encrypt: reads(op.encrypt),
  Decrypt: reads(op.decrypt),
  GenerateDataKey: reads(op.generateDataKey),
  GenerateDataKeyWithoutPlaintext: reads(op.generateDataKeyWithoutPlaintext),
  ReEncrypt: reads(op.reEncrypt),
};

/** The route a request of `method` with this `X-Amz-Target` names; undefined when none (not a POST, or no such operation). */
export function findRoute(method: string | undefined, target: string): KmsRoute | undefined {
  const operation = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : '';
  return method === 'POST' && Object.hasOwn(ROUTES, operation) ? ROUTES[operation] : undefined;
}
