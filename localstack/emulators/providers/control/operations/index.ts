export * from './delete-account';
export * from './get-requests';
export * from './put-account';
export * from './put-faults';
