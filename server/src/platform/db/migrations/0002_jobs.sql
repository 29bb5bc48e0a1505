-- Durable job queue (server/src/platform/jobs). One row per job, in the catalog itself, so that a
-- feature's writes and the jobs they cause commit in one transaction.
--
-- States: available (ready), scheduled (waits for run_at: delayed or snoozed), running (claimed, under
-- a lease), retryable (failed, waits for its backoff), and the final states completed, cancelled,
-- discarded (failed for good; the last error stays visible). Workers claim with one UPDATE over
-- jobs_claim; a crash leaves rows `running`, which the next start re-queues.
-- Timestamps are integer milliseconds since the epoch (UTC); the API serves them as ISO 8601.

CREATE TABLE jobs (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  queue            TEXT    NOT NULL,
  -- `<feature>.<verb-noun>`, for example `assets.extract-metadata`: the handler in the registry.
  kind             TEXT    NOT NULL,
  args             TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(args)),
  state            TEXT    NOT NULL CHECK (state IN ('available', 'scheduled', 'running', 'retryable', 'completed', 'cancelled', 'discarded')),
  -- Smaller runs first; then the earliest run_at, then the oldest job.
  priority         INTEGER NOT NULL DEFAULT 0,
  -- Attempts started so far (a claim adds one; a snooze gives it back).
  attempt          INTEGER NOT NULL DEFAULT 0 CHECK (attempt >= 0),
  max_attempts     INTEGER NOT NULL CHECK (max_attempts >= 1),
  -- Not before this time (the contract calls it scheduled_at).
  run_at           INTEGER NOT NULL,
  created_at       INTEGER NOT NULL,
  attempted_at     INTEGER,
  finalized_at     INTEGER,
  -- Set while running: past it, a job nobody finishes is taken back.
  lease_expires_at INTEGER,
  last_error       TEXT,
  -- History: [{at, attempt, error}], one entry per failed or interrupted attempt.
  errors           TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(errors) AND json_type(errors) = 'array'),
  -- At most one non-final job per (kind, unique_key); NULL means no uniqueness.
  unique_key       TEXT,
  progress         REAL    CHECK (progress IS NULL OR (progress >= 0 AND progress <= 1)),
  progress_message TEXT,
  result           TEXT    CHECK (result IS NULL OR json_valid(result)),
  -- Whose request caused the job, when a person did.
  owner_id         INTEGER REFERENCES users (user_id) ON DELETE SET NULL,
  CHECK ((finalized_at IS NOT NULL) = (state IN ('completed', 'cancelled', 'discarded'))),
  CHECK ((lease_expires_at IS NOT NULL) = (state = 'running'))
) STRICT;

-- Claiming: the next runnable job of a queue, in claim order.
CREATE INDEX jobs_claim ON jobs (queue, priority, run_at, id) WHERE state IN ('available', 'scheduled', 'retryable');

-- Uniqueness over the non-final states only, so a job can run again once the previous one finished.
CREATE UNIQUE INDEX jobs_unique ON jobs (kind, unique_key)
  WHERE unique_key IS NOT NULL AND state IN ('available', 'scheduled', 'running', 'retryable');

-- Listing (newest first) by state, queue or kind; summaries and statistics per queue and state.
CREATE INDEX jobs_state ON jobs (state, id);
CREATE INDEX jobs_queue_state ON jobs (queue, state, id);
CREATE INDEX jobs_kind ON jobs (kind, id);
CREATE INDEX jobs_created ON jobs (created_at);
CREATE INDEX jobs_owner ON jobs (owner_id) WHERE owner_id IS NOT NULL;
