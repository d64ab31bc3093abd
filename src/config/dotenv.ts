import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Reads `.env` from the working directory when there is one, as the README's
 * `cp .env.example .env` promises. Node's own loader never overrides a variable the
 * environment already has, so a deployment's settings always win over the file.
 */
export function loadDotEnv(path = resolve('.env')): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
