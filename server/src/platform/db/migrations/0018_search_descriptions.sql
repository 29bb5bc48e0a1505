-- Search (issue 13, features/search channels/text.ts): the `text` channel looks for the query's words in the
-- descriptions people wrote. Few photos have one, so a partial index over just those rows lets the channel read
-- them and not every row of the owner's library (at 100k photos, a full pass per query).
CREATE INDEX assets_described ON assets (owner_id, is_deleted) WHERE description IS NOT NULL;
