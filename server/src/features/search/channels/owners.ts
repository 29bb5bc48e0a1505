/**
 * The owners whose files a search may look at in SQL: the caller and the members who share their
 * library with them. Only a first cut for the statements' indexes: the allowed bitmap (browse's list)
 * decides what is returned, partners shown in the timeline or not, filters and all.
 */
export const SEARCHED_OWNERS = `(SELECT @me UNION ALL SELECT owner_id FROM partner_shares WHERE partner_id = @me)`;
