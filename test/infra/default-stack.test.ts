/**
 * The checks of the default stack (cdk.json's context alone), one module per part of the stack in
 * ./default-stack/, run in this one file so that they share one synthesis (helpers.ts `defaultStack`): each
 * file of its own synthesised the stack and loaded aws-cdk-lib again (8 files, 28 s of CPU; together 7 s, 2026-11-28).
 * A new check of the default stack goes in a module there, imported here.
 */
import './default-stack/attachments-group';
import './default-stack/automations';
import './default-stack/dashboard-group';
import './default-stack/least-privilege';
import './default-stack/links-group';
import './default-stack/migrations-group';
import './default-stack/reputation-guard';
import './default-stack/ses-suppression';
