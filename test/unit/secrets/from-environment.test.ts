/** Which secret box the environment selects. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SECRETS_KEY } from '#infra/definitions';
import { KmsSecretBox } from '#shared/adapters/aws/kms-secret-box';
import { secretBoxFromEnv } from '#shared/services/secret-box-from-environment';
import { LocalSecretBox } from '#shared/adapters/secrets/local-secret-box';

const config = { region: 'eu-west-1' };
// Building a KMS client on Node 20 makes the SDK warn about its future Node 22 requirement.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

test("the variable names are the definitions'", () => {
  expect(SECRETS_KEY.envVar).toBe('SECRETS_KEY_ID');
  expect(SECRETS_KEY.localFileEnvVar).toBe('LOCAL_SECRETS_KEY_FILE');
});

test('KMS when SECRETS_KEY_ID is set; with a local key file too, a box that still opens its v1:local: secrets', () => {
  expect(secretBoxFromEnv({ SECRETS_KEY_ID: 'arn:aws:kms:eu-west-1:1:key/x' }, config)).toBeInstanceOf(KmsSecretBox);
  // Both set (the embedded cloud): sealing with KMS and opening local secrets is shown against the KMS
  // emulator in kms-secret-box-on-emulator.test.ts.
  const both = secretBoxFromEnv({ SECRETS_KEY_ID: 'arn:aws:kms:eu-west-1:1:key/x', LOCAL_SECRETS_KEY_FILE: '/tmp/k' }, config);
  expect(both).not.toBeInstanceOf(KmsSecretBox);
  expect(both).not.toBeInstanceOf(LocalSecretBox);
});

test('the local box when only LOCAL_SECRETS_KEY_FILE is set; it seals with that file', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-env-'));
  try {
    const keyFile = path.join(dir, 'secrets.key');
    const box = secretBoxFromEnv({ LOCAL_SECRETS_KEY_FILE: keyFile }, config);
    expect(box).toBeInstanceOf(LocalSecretBox);
    expect(await box.seal('x', { owner: 'o' })).toMatch(/^v1:local:/);
    expect(fs.existsSync(keyFile)).toBe(true);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('neither: a configuration error naming both variables (empty counts as unset)', () => {
  expect(() => secretBoxFromEnv({}, config)).toThrow(/Missing configuration: set SECRETS_KEY_ID .* or LOCAL_SECRETS_KEY_FILE/);
  expect(() => secretBoxFromEnv({ SECRETS_KEY_ID: '', LOCAL_SECRETS_KEY_FILE: '' }, config)).toThrow(/Missing configuration/);
});
