import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Reads `.env` from the working directory when there is one, as the README's
 * `cp .env.example .env` promises. Node's own loader never overrides a variable the
 * environment already has, so a deployment's settings always win over the file.
 * Answers the names the file set, so a command can say where a setting it used came from.
 */
export function loadDotEnv(path = resolve('.env')): Set<string> {
  if (!existsSync(path)) return new Set();
  const before = new Set(Object.keys(process.env));
  process.loadEnvFile(path);
  return new Set(Object.keys(process.env).filter((name) => !before.has(name)));
}
