// The spend ledger's tables (module `ledger`): one row per call, reconciliation or credit, and the
// balance reconciliation measures against.
import { registerMigrations } from '../app-db.ts';

export const LEDGER_MIGRATIONS: readonly string[] = [
  `CREATE TABLE spend_ledger (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('call', 'reconciliation', 'credit')),
    status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'recovered', 'recorded')),
    started_at TEXT NOT NULL,
    finished_at TEXT,
    operation TEXT NOT NULL,
    request_summary TEXT NOT NULL,
    request_id TEXT,
    idempotency_key TEXT,
    http_status INTEGER,
    attempts INTEGER CHECK (attempts IS NULL OR attempts >= 0),
    expected_cost_micro_usd INTEGER NOT NULL DEFAULT 0 CHECK (expected_cost_micro_usd >= 0),
    charged_micro_usd INTEGER CHECK (charged_micro_usd IS NULL OR charged_micro_usd >= 0),
    unreported_charge_micro_usd INTEGER NOT NULL DEFAULT 0 CHECK (unreported_charge_micro_usd >= 0),
    credit_micro_usd INTEGER NOT NULL DEFAULT 0 CHECK (credit_micro_usd >= 0),
    balance_after_micro_usd INTEGER,
    replayed INTEGER NOT NULL DEFAULT 0 CHECK (replayed IN (0, 1)),
    cache_hit INTEGER NOT NULL DEFAULT 0 CHECK (cache_hit IN (0, 1)),
    cache_served_at TEXT,
    project_id TEXT,
    session_id TEXT NOT NULL,
    error_code TEXT,
    charge_unseen INTEGER NOT NULL DEFAULT 0 CHECK (charge_unseen IN (0, 1)),
    reconciled INTEGER NOT NULL DEFAULT 0 CHECK (reconciled IN (0, 1))
  ) STRICT;
  CREATE INDEX spend_ledger_started ON spend_ledger (started_at);
  CREATE INDEX spend_ledger_finished ON spend_ledger (finished_at);
  CREATE INDEX spend_ledger_session ON spend_ledger (session_id);
  CREATE INDEX spend_ledger_project ON spend_ledger (project_id);
  CREATE INDEX spend_ledger_key ON spend_ledger (idempotency_key) WHERE idempotency_key IS NOT NULL;
  CREATE INDEX spend_ledger_pending ON spend_ledger (id) WHERE status = 'pending';
  CREATE INDEX spend_ledger_unreconciled ON spend_ledger (id) WHERE reconciled = 0;
  CREATE TABLE spend_balance_baseline (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    balance_micro_usd INTEGER NOT NULL,
    observed_at TEXT NOT NULL
  ) STRICT;`,
  // Totals read only rows that cost something: free calls and cache hits, the bulk of the ledger,
  // are skipped by this partial index instead of being summed as zeros.
  `CREATE INDEX spend_ledger_charged ON spend_ledger (finished_at)
     WHERE kind IN ('call', 'reconciliation') AND (coalesce(charged_micro_usd, 0) > 0 OR unreported_charge_micro_usd > 0);`,
  // Every index is written on every call, so only those a query uses are kept: nothing reads by
  // finished_at or session alone (totals go through spend_ledger_charged), and keys are looked up
  // only among rows that cost something (was a replayed key ever charged?).
  `DROP INDEX spend_ledger_finished;
   DROP INDEX spend_ledger_session;
   DROP INDEX spend_ledger_key;
   CREATE INDEX spend_ledger_charged_key ON spend_ledger (idempotency_key)
     WHERE idempotency_key IS NOT NULL AND (coalesce(charged_micro_usd, 0) > 0 OR unreported_charge_micro_usd > 0);`,
  // The exact request of a pending call, for its replay (see "Request summaries and replay copies").
  // NULL once the row is closed, and on rows written before this column (their summary was the request).
  `ALTER TABLE spend_ledger ADD COLUMN replay_request TEXT;`,
  // A service that misreports its charges (see "The balance drop is the truth" in reconciliation.ts):
  // what a charge header said when Plat did not book it as sent, why (charge_check), and how much of
  // a reported charge the balance did not bear out (booked = charged + unreported − overstated).
  // Credits are summed for the net total through their own small index.
  `ALTER TABLE spend_ledger ADD COLUMN charge_header TEXT;
   ALTER TABLE spend_ledger ADD COLUMN charge_check TEXT
     CHECK (charge_check IS NULL OR charge_check IN ('disagrees', 'unreadable', 'failed_call', 'missing'));
   ALTER TABLE spend_ledger ADD COLUMN overstated_charge_micro_usd INTEGER NOT NULL DEFAULT 0 CHECK (overstated_charge_micro_usd >= 0);
   CREATE INDEX spend_ledger_credit ON spend_ledger (finished_at) WHERE kind = 'credit';`,
  // A call whose price was not known: its expected cost is the bound it was counted at against the
  // caps, not a price anyone quoted; shown and exported as "price not known".
  `ALTER TABLE spend_ledger ADD COLUMN price_known INTEGER NOT NULL DEFAULT 1 CHECK (price_known IN (0, 1));`,
];

registerMigrations('ledger', LEDGER_MIGRATIONS);
