export * from './change-resource-record-sets';
export * from './create-hosted-zone';
export * from './get-change';
export * from './list-hosted-zones-by-name';
export * from './list-resource-record-sets';
