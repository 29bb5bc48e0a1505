/**
 * Trash: what was deleted from the library. The files stay where they are on disk; restoring puts
 * a photo back in the library exactly as it was.
 */
import { AssetCollectionPage } from './AssetCollectionPage';

const FILTER = { is_deleted: true };

export function TrashPage() {
  return (
    <AssetCollectionPage
      name="trash"
      title="Trash"
      filter={FILTER}
      sortBy="recently_added"
      groupByDay={false}
      trash
      describe={(n) => `${n === 1 ? '1 item' : `${n.toLocaleString()} items`} in the trash. Select and restore to put them back.`}
      empty={{ icon: 'trash', title: 'Trash is empty', text: 'Photos you delete wait here, and can be restored.' }}
    />
  );
}
