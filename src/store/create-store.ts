import { typedDriver, type StoreDriver } from './driver';
import { ingestWrites } from './ingest-store';
import type { Store } from './store';

/** When the caller does not say: the moment the write was asked for (it commits a moment later). */
const nowIso = () => new Date().toISOString();

/**
 * The Store contract, once, over either database's driver. An ack stores and queues, nothing more:
 * the ledger's projector (ledger-store.ts) applies the stored notifications behind it.
 */
export function createStore(driver: StoreDriver): Store {
  const { write, read } = typedDriver(driver);
  return {
    ...ingestWrites(driver.kind, (name, args) => driver.write(name, args)),
    nextPending: (limit, maxBytes) => read('nextPending', limit, maxBytes),
    markDelivered: (seqs, deliveredAt, publisher) => write('markDelivered', seqs, deliveredAt, publisher ?? null),
    markRetry: (seq, error, nextAttemptAt, detail) => write('markRetry', seq, error, nextAttemptAt, detail?.at ?? nowIso(), detail?.publisher ?? null),
    markDead: (seq, error, detail) => write('markDead', seq, error, detail?.at ?? nowIso(), detail?.publisher ?? null),
    requeue: (eventId, by) => write('requeue', eventId, by?.at ?? nowIso(), by?.actor ?? null),
    requeueDead: (by) => write('requeueDead', by?.at ?? nowIso(), by?.actor ?? null),
    backlog: (now) => read('backlog', now),
    listEvents: (filter) => read('listEvents', filter),
    getEvent: (eventId) => read('getEvent', eventId),
    listRejections: (limit) => read('listRejections', limit),
    listRejectionLines: (limit) => read('listRejectionLines', limit),
    getRejection: (id) => read('getRejection', id),
    markRejectionReprocessed: (id, eventId, at) => write('markRejectionReprocessed', id, eventId, at),
    listConflicts: (limit) => read('listConflicts', limit),
    listConflictLines: (limit) => read('listConflictLines', limit),
    getConflict: (id) => read('getConflict', id),
    searchEvents: (search) => read('searchEvents', search),
    exportEventsPage: (search, before, limit) => read('exportEventsPage', search, before, limit),
    requeueDeadMatching: (search, by) => write('requeueDeadMatching', search, by?.at ?? nowIso(), by?.actor ?? null),
    deliveryAttempts: (eventId) => read('listDeliveryAttempts', eventId),
    eventCounts: () => read('eventCounts'),
    problemsSince: (since) => read('problemsSince', since),
    eventActivity: (since) => read('eventActivity', since),
    conflictsOfEvent: (eventId) => read('conflictsOfEvent', eventId),
    recordAudit: (entry) => write('recordAudit', entry),
    listAudit: (limit, offset) => read('listAudit', limit, offset),
    searchAudit: (search) => read('searchAudit', search),
    pruneExpired: (cutoff, prunedAt, limit) => write('pruneExpired', cutoff, prunedAt, limit),
    recordRetentionRun: (run) => write('recordRetentionRun', run),
    lastRetentionRun: () => read('lastRetentionRun'),
    addOperator: (operator) => write('addOperator', operator),
    listOperators: () => read('listOperators'),
    findOperator: (name) => read('findOperator', name),
    findOperatorByTokenHash: (tokenHash) => read('findOperatorByTokenHash', tokenHash),
    rotateOperatorToken: (name, tokenHash, at) => write('rotateOperatorToken', name, tokenHash, at),
    removeOperator: (name) => write('removeOperator', name),
    createSession: (session) => write('createSession', session),
    findSession: (idHash, check) => read('findSession', idHash, check),
    touchSession: (idHash, now, limits) => write('touchSession', idHash, now, limits),
    setSessionLocale: (idHash, locale) => write('setSessionLocale', idHash, locale),
    endSession: (idHash) => write('endSession', idHash),
    endSessionsOf: (operator) => write('endSessionsOf', operator),
    pruneExpiredSessions: (now, limits) => write('pruneExpiredSessions', now, limits),
    alertSources: (limit) => read('alertSources', limit),
    recordAlerts: (from, to, alerts, at) => write('recordAlerts', from, to, alerts, at),
    openAlertChannel: (channel) => write('openAlertChannel', channel),
    claimAlerts: (channel, owner, rules) => write('claimAlerts', channel, owner, rules),
    finishAlerts: (channel, owner, result) => write('finishAlerts', channel, owner, result),
    alertChannels: () => read('alertChannels'),
    holdsRelayLock: () => driver.holdsRelayLock(),
    ping: () => driver.ping(),
    storeId: () => read('storeId'),
    onNewEvents: (listener) => driver.onNewEvents(listener),
    close: () => driver.close(),
  };
}
