/** The operator CLI's program (`npm run admin`, through ./admin.cjs): runs ./admin-local.ts on the process's arguments and exits with its code. */
import { main } from './admin-local';

void main(process.argv.slice(2)).then((code) => process.exit(code));
