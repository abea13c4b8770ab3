export * from './get-domain-webhooks';
export * from './get-domain';
export * from './get-template';
export * from './list-account-webhooks';
export * from './list-domains';
export * from './list-suppressions';
export * from './list-templates';
