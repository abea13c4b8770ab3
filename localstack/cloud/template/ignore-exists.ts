/** CloudFormation's create on a kept data folder: a resource that already exists is kept (an AlreadyExists or Conflict answer is not an error). */
export function ignoreExists(error: unknown): void {
  const name = error instanceof Error ? error.name : '';
  if (name !== 'AlreadyExistsException' && name !== 'ConflictException') throw error;
}
