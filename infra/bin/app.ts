/**
 * CDK app (cdk.json: `npx tsx infra/bin/app.ts`). Function code comes from dist/functions, built by
 * `npm run build` (npm run synth / deploy build first).
 *
 * Context: `stackName` (default Mailservice), `sandboxDomain` (default SETTINGS.SANDBOX_DOMAIN).
 * The stack is environment-agnostic: it deploys to the account/region of the CLI credentials.
 */
import { App } from 'aws-cdk-lib';
import { MailserviceStack } from '../stacks/mailservice-stack';

const app = new App();
const stackName = (app.node.tryGetContext('stackName') as string | undefined) ?? 'Mailservice';
new MailserviceStack(app, stackName);
app.synth();
