import type { Statement } from '../../src/store/procedures/procedure';
import { recordNotifications } from '../../src/store/procedures/inbox-outbox/record-notifications';
import { inboxRow } from '../../src/store/procedures/inbox-outbox/inbox-row';
import { inboxEntry } from '../helpers/stored-events';
import { describePostgres } from './pg-test-database';
import { postgresRunner, sqliteRunner } from './procedure-runners';
import { recordNotificationsContract } from './record-notifications-contract';

describe('recording a batch of notifications on SQLite', () => {
  recordNotificationsContract(async () => sqliteRunner());
});

describePostgres('recording a batch of notifications on PostgreSQL', () => {
  recordNotificationsContract(postgresRunner);
});

describe('recording a batch of notifications, whatever the database answers', () => {
  test('inbox rows are matched to their entries by event id, whatever order RETURNING gives them in', () => {
    const batch = ['R1', 'R2', 'R3'].map((pgCno) => inboxRow(inboxEntry({ pgCno })));
    const seqOf = new Map(batch.map((entry, i) => [entry.eventId, 101 + i]));
    const statements: Statement[] = [];
    const answer = (statement: Statement) => {
      statements.push(statement);
      if (statement.mode === 'run') return { changes: 1 };
      return /^INSERT INTO inbox/.test(statement.sql) ? batch.map(({ eventId }) => ({ seq: seqOf.get(eventId), event_id: eventId })).reverse() : [];
    };
    const procedure = recordNotifications(batch);
    let step = procedure.next();
    while (!step.done) {
      const { value } = step;
      step = procedure.next(value.mode === 'trip' ? value.statements.map(answer) : value.mode === 'outboxChanged' ? undefined : answer(value as Statement));
    }
    expect(step.value).toEqual(batch.map((entry) => ({ outcome: 'accepted', eventId: entry.eventId })));
    const outboxInsert = statements.find((statement) => statement.mode === 'run' && /^INSERT INTO outbox/.test(statement.sql));
    const rows = outboxInsert?.mode === 'run' ? outboxInsert.params : [];
    expect([rows[0], rows[1], rows[4], rows[5], rows[8], rows[9]]).toEqual(batch.flatMap(({ eventId }) => [seqOf.get(eventId), eventId]));
  });
});
