-- The assistant (issue 30): a run keeps the mentions its request resolved (people, albums, pins, the photos pointed
-- at, as refs), so that a model asked again after a confirmation still has them, as it had them when it planned.
ALTER TABLE agent_runs ADD COLUMN mentions TEXT NOT NULL DEFAULT '[]';
