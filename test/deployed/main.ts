/** `npm run test:deployed`'s program (run from a bundle by ./run.cjs): ./run.ts on the process's arguments, exiting with its code. */
import { main } from './run';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
