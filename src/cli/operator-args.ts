import { newOperatorNameProblem, operatorNameProblem, shownName } from '../store/operator-name';
import { CliFailure, EXIT } from '../exit-codes';

/**
 * Parses an operator name argument: one that no operator can have (control characters, too
 * long, the bootstrap `admin`) is a usage error, never "not found".
 */
export function operatorName(text: string): string {
  return checked(text, operatorNameProblem(text));
}

/** Parses the name of an operator to add: one that hides characters or reads as a reserved name is a usage error. */
export function newOperatorName(text: string): string {
  return checked(text, newOperatorNameProblem(text));
}

function checked(text: string, problem: string | null): string {
  if (problem) throw new CliFailure(`${problem}, got ${shownName(text)}`, EXIT.usage);
  return text;
}
