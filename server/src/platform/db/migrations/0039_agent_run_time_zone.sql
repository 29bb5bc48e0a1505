-- The assistant (issue 30): a run keeps the time zone its request was read in, so that a planner asked again after
-- a confirmation (a model going on from the receipt) reads dates as the request did.
ALTER TABLE agent_runs ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
