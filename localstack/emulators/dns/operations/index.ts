export * from './delete-records';
export * from './list-queries';
export * from './list-records';
export * from './put-record-set';
