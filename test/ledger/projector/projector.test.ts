import { postgresLedgerDb, sqliteLedgerDb } from '../../store/ledger-test-db';
import { describePostgres } from '../../store/pg-test-database';
import { projectorContract } from './projector-contract';

describe("the ledger's projector on SQLite", () => {
  projectorContract(async () => {
    const db = sqliteLedgerDb('noti-projector-');
    return { ...db, open: (options) => db.open(options?.projector) };
  });
});

describePostgres("the ledger's projector on PostgreSQL", () => {
  projectorContract(async () => {
    const db = await postgresLedgerDb();
    return { ...db, open: (options) => db.open(options?.projector) };
  });
});
