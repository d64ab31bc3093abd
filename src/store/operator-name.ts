import { BOOTSTRAP_OPERATOR } from './store';

/** An e-mail address's longest form, since single sign-on proxies name people by e-mail. */
export const MAX_OPERATOR_NAME_LENGTH = 254;

/**
 * Characters a name must not hold: control characters (a newline would forge lines in logs and
 * terminals), format characters (a right-to-left override would make `kim` read as someone
 * else in the audit log), unassigned, private-use and lone surrogate code points.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Cs}\p{Zl}\p{Zp}]/u;

/** Why `name` cannot name an operator, or null. The audit log names people by it, so it must print as itself. */
export function operatorNameProblem(name: string): string | null {
  if (name.length === 0) return 'an operator name must not be empty';
  if ([...name].length > MAX_OPERATOR_NAME_LENGTH) return `an operator name is at most ${MAX_OPERATOR_NAME_LENGTH} characters`;
  if (UNPRINTABLE.test(name)) return 'an operator name must not hold control or invisible formatting characters';
  if (name.trim() !== name) return 'an operator name must not start or end with whitespace';
  if (name === BOOTSTRAP_OPERATOR) return `"${BOOTSTRAP_OPERATOR}" is the bootstrap operator, who signs in with ADMIN_TOKEN`;
  return null;
}
