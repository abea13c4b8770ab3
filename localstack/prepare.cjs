/**
 * `npm install`'s `prepare` (package.json): ./prepare.ts through tsx's CommonJS API. Without tsx (an install
 * without the dev dependencies) it does nothing: `npm start` builds what it needs on first use.
 */
'use strict';
let tsx;
try {
  tsx = require('tsx/cjs/api');
} catch {
  console.warn('prepare: tsx is not installed; npm start builds the local cloud on first use');
}
if (tsx) {
  tsx.register();
  require('./prepare.ts').main();
}
