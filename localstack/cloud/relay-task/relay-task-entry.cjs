// The relay task's process (./relay-task-process.ts starts it): TypeScript through tsx, as the rest of the
// local cloud runs it, then the local-cloud side of the container (./relay-task-runtime.ts), which runs
// the product's entry.
require('tsx/cjs/api').register();
require('./relay-task-runtime.ts');
