/**
 * Operators, console sessions, the audit log and the operator's searches and counts (console and
 * CLI). One line per verb: under `consoleOperatorsWrites` or `consoleOperatorsReads` (see
 * ../index.ts).
 */
import { addOperator } from './add-operator';
import { createSession } from './create-session';
import { endSession } from './end-session';
import { endSessionsOf } from './end-sessions-of';
import { eventActivity } from './event-activity';
import { eventCounts } from './event-counts';
import { exportEventsPage } from './export-events-page';
import { findOperator } from './find-operator';
import { findOperatorByTokenHash } from './find-operator-by-token-hash';
import { findSession } from './find-session';
import { listAudit } from './list-audit';
import { listOperators } from './list-operators';
import { problemsSince } from './problems-since';
import { pruneExpiredSessions } from './prune-expired-sessions';
import { recordAudit } from './record-audit';
import { removeOperator } from './remove-operator';
import { requeueDeadMatching } from './requeue-dead-matching';
import { rotateOperatorToken } from './rotate-operator-token';
import { searchAudit } from './search-audit';
import { searchEvents } from './search-events';
import { storeId } from './store-id';
import { setSessionLocale } from './set-session-locale';
import { touchSession } from './touch-session';

export const consoleOperatorsWrites = {
  // operator console and CLI
  requeueDeadMatching,
  recordAudit,
  // operators and console sessions
  addOperator,
  rotateOperatorToken,
  removeOperator,
  createSession,
  touchSession,
  setSessionLocale,
  endSession,
  endSessionsOf,
  pruneExpiredSessions,
} as const;

export const consoleOperatorsReads = {
  // operator console and CLI
  searchEvents,
  exportEventsPage,
  eventCounts,
  problemsSince,
  eventActivity,
  listAudit,
  searchAudit,
  storeId,
  // operators and console sessions
  listOperators,
  findOperator,
  findOperatorByTokenHash,
  findSession,
} as const;
