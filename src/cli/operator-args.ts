import { operatorNameProblem } from '../store/operator-name';
import { CliFailure, EXIT } from './exit-codes';

/**
 * Parses an operator name argument: one that no operator can have (control characters, too
 * long, the bootstrap `admin`) is a usage error, never "not found".
 */
export function operatorName(text: string): string {
  const problem = operatorNameProblem(text);
  if (problem) throw new CliFailure(`${problem}, got ${JSON.stringify(text)}`, EXIT.usage);
  return text;
}
