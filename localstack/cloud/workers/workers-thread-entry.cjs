// Loads the TypeScript worker-thread entry through tsx (the main thread's tsx hooks do not reach threads).
require('tsx/cjs/api').register();
require('./workers-thread.ts');
