/**
 * The filter the parser produces is queryAssets' asset filter, field for field (browse), so its
 * answer can be sent as `filter` as it is. Only the fields the grammar can name are ever set.
 */
export type { AssetFilter } from '../../browse/index.ts';
