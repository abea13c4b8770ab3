/**
 * One deployment of the template on the local cloud: each resource's physical record (what Ref and
 * Fn::GetAtt return) and its Properties resolved against them, as CloudFormation resolves a resource's
 * properties once the resources it refers to exist. Records start from the physical name
 * (./physical-records.ts); provisioning adds what only an emulator knows (queue URLs, the stream ARN, key ids).
 */
import type { CfnResource, CfnTemplate } from './cfn-types';
import { physicalRecord, type PhysicalRecord } from './physical-records';
import { conditionHolds, resolveValue, TemplateResolveError, type ResolveScope } from './resolve';

export interface StackIdentity {
  stackName: string;
  region: string;
  accountId: string;
  apiUrl: string;
}

export class DeployedStack {
  private readonly records = new Map<string, PhysicalRecord>();
  readonly scope: ResolveScope;

  constructor(
    readonly template: CfnTemplate,
    readonly identity: StackIdentity,
    /** Physical names a data folder recorded for logical ids (./stack-state.ts). */
    private readonly recordedNames: Record<string, string> = {},
  ) {
    const parameters: Record<string, unknown> = {};
    for (const [name, parameter] of Object.entries(template.Parameters ?? {})) parameters[name] = parameter.Default;
    this.scope = {
      ref: (logicalId) => {
        const value = this.record(logicalId).ref;
        if (value === undefined) throw new TemplateResolveError(logicalId, 'Ref is not known before the resource is created');
        return value;
      },
      getAtt: (logicalId, attribute) => {
        const value = this.record(logicalId).attributes[attribute];
        if (value === undefined)
          throw new TemplateResolveError(logicalId, `the local cloud does not know ${this.resource(logicalId).Type}.${attribute} (yet)`);
        return value;
      },
      parameters,
      pseudo: {
        accountId: identity.accountId,
        region: identity.region,
        partition: 'aws',
        urlSuffix: 'amazonaws.com',
        stackName: identity.stackName,
        stackId: `arn:aws:cloudformation:${identity.region}:${identity.accountId}:stack/${identity.stackName}/local`,
      },
      conditions: template.Conditions ?? {},
    };
  }

  resource(logicalId: string): CfnResource {
    const resource = this.template.Resources[logicalId];
    if (!resource) throw new TemplateResolveError(logicalId, 'no such resource in the template');
    return resource;
  }

  /** Logical ids of the resources of this type that exist (their Condition, if any, holds). */
  ofType(type: string): string[] {
    return Object.entries(this.template.Resources)
      .filter(([id, resource]) => resource.Type === type && conditionHolds(resource.Condition, this.scope, `Resources/${id}`))
      .map(([id]) => id);
  }

  record(logicalId: string): PhysicalRecord {
    let record = this.records.get(logicalId);
    if (!record) {
      const resource = this.resource(logicalId);
      record = physicalRecord(resource.Type, logicalId, resource.Properties ?? {}, {
        ...this.identity,
        recordedName: this.recordedNames[logicalId],
      });
      this.records.set(logicalId, record);
    }
    return record;
  }

  /** Adds what an emulator answered when it created the resource (a queue URL, a stream ARN, a key id). */
  learn(logicalId: string, update: { ref?: unknown; attributes?: Record<string, unknown> }): void {
    const record = this.record(logicalId);
    if (update.ref !== undefined) record.ref = update.ref;
    Object.assign(record.attributes, update.attributes);
  }

  /** The resource's Properties with every intrinsic resolved. */
  properties<T = Record<string, unknown>>(logicalId: string): T {
    return resolveValue<T>(this.resource(logicalId).Properties ?? {}, this.scope, `Resources/${logicalId}/Properties`);
  }

  /** The physical names the local cloud chose, by logical id (for the data folder's state). */
  physicalNames(): Record<string, string> {
    const names: Record<string, string> = {};
    for (const [id, record] of this.records) {
      if (record.name !== undefined) names[id] = record.name;
    }
    return names;
  }

  resolve<T = unknown>(value: unknown, path: string): T {
    return resolveValue<T>(value, this.scope, path);
  }
}
