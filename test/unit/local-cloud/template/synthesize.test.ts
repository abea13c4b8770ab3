/**
 * The synthesized template's cache key: it covers what the CDK app reads (so an edit of a construct, a
 * definition or a setting synthesizes again) and the context, and nothing that varies between starts.
 */
import { appInputs, templateHash } from '#localstack/cloud/template/synthesize';

jest.setTimeout(60_000);

describe('the template cache key', () => {
  it("covers the CDK app, its constructs and definitions and the files they import, of functions/ only the declarations API Gateway's routes come from, not the functions' code", async () => {
    const inputs = await appInputs();
    expect(inputs).toEqual(
      expect.arrayContaining([
        'infra/stacks/mailservice-stack.ts',
        'infra/constructs/grants.ts',
        'infra/definitions/index.ts',
        'infra/definitions/api-groups.ts',
        'infra/definitions/grants.ts',
        'shared/config/config.ts',
        'shared/config/settings.ts',
      ]),
    );
    // infra/api-routes.ts reads the list of every group: each group's operations and schemas, no handler or app.
    const declarations = /^functions\/api\/(operations\.ts|[^/]+\/([a-z-]+-)?(operations|schemas)\.ts)$/;
    expect(inputs).toEqual(
      expect.arrayContaining([
        'functions/api/operations.ts',
        'functions/api/emails/operations.ts',
        'functions/api/account/audit-operations.ts',
      ]),
    );
    expect(inputs.filter((file) => file.startsWith('functions/') && !declarations.test(file))).toEqual([]);
    expect(inputs.some((file) => file.includes('node_modules'))).toBe(false);
  });

  it('is the same for the same inputs and differs with the context (a setting given on npm start)', async () => {
    const plain = await templateHash({});
    expect(await templateHash({})).toBe(plain);
    expect(await templateHash({ sandboxDomain: 'sandbox.example.test' })).not.toBe(plain);
  });
});
