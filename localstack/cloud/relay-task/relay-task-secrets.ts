/**
 * The relay task's container Secrets, resolved as ECS resolves them before the container starts: each
 * `ValueFrom` names a Secrets Manager secret, optionally a JSON key of its value, a version stage and a
 * version id (`<secret ARN>:<json-key>:<version-stage>:<version-id>`,
 * https://docs.aws.amazon.com/AmazonECS/latest/developerguide/secrets-envvar-secrets-manager.html), and the
 * variable gets that value.
 *
 * The local cloud has no Secrets Manager: the template's TLS secret (infra/constructs/smtp-relay.ts, JSON
 * `{"key": "<PEM>", "cert": "<PEM>"}`) is answered with the local certificate (../tls/smtp-relay.ts
 * `certificate()`: the developer's SMTP_TLS_* files when `npm start` is given them, else the local CA's in
 * DATA_DIR/smtp-relay). Our choice, documented in docs/local-cloud/template.md: any other reference (another
 * service, a JSON key other than `key` and `cert`, a whole secret without a JSON key, a version) is refused,
 * so a template the local cloud cannot answer fails at start rather than starting a task with a wrong value.
 */

/** A parsed Secrets Manager reference of a container secret. */
export interface SecretReference {
  secretArn: string;
  jsonKey: string;
  versionStage: string;
  versionId: string;
}

const SECRETS_MANAGER_REFERENCE = /^(arn:[^:]+:secretsmanager:[^:]+:\d{12}:secret:[^:]+)(?::([^:]*):([^:]*):([^:]*))?$/;

export function parseSecretReference(valueFrom: string): SecretReference | null {
  const match = SECRETS_MANAGER_REFERENCE.exec(valueFrom);
  if (!match) return null;
  return { secretArn: match[1]!, jsonKey: match[2] ?? '', versionStage: match[3] ?? '', versionId: match[4] ?? '' };
}

/** `secrets` (variable -> ValueFrom) resolved against the local TLS secret's JSON value. */
export function resolveTaskSecrets(secrets: Record<string, string>, tls: { key: string; cert: string }): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, valueFrom] of Object.entries(secrets)) {
    const reference = parseSecretReference(valueFrom);
    if (!reference)
      throw new Error(`the relay task's secret ${name} (${valueFrom}) is not a Secrets Manager reference the local cloud can answer`);
    if (reference.versionStage || reference.versionId)
      throw new Error(`the relay task's secret ${name} names a version (${valueFrom}): the local cloud has one version of its TLS secret`);
    if (reference.jsonKey !== 'key' && reference.jsonKey !== 'cert') {
      throw new Error(
        `the relay task's secret ${name} reads JSON key "${reference.jsonKey}" of ${reference.secretArn}: the local TLS secret has "key" and "cert"`,
      );
    }
    values[name] = tls[reference.jsonKey];
  }
  return values;
}
