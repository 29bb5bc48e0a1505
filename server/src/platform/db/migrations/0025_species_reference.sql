-- Species reference cards (issue 14 point 5, features/species). Additive.
--
-- A cache of what the outside species reference (iNaturalist) answered, so a card opens without the network
-- once seen and still opens when the machine is offline. One row per normalised question: the names asked
-- (trimmed, spaces collapsed, lower case) and the locale. `card` is the card as served (JSON) when a taxon
-- matched; NULL records "no such species" (kept briefly, see species.service.ts). Not per member: the card is
-- public reference text, the same for every member who asks the same question.
CREATE TABLE species_references (
  query_key  TEXT    PRIMARY KEY,
  locale     TEXT    NOT NULL,
  card       TEXT,
  fetched_at INTEGER NOT NULL
) STRICT;
CREATE INDEX species_references_fetched ON species_references (fetched_at);
