/**
 * Trash: what was deleted from the library. Restoring puts a photo back exactly as it was; "Delete
 * permanently" (selected items) and "Empty trash" remove the files from the household's folder for
 * good, after a confirmation (TrashActions.tsx). Items also go by themselves after the household's
 * retention period, which the page states.
 */
import { AssetCollectionPage } from '../../photos/AssetCollectionPage';
import { TrashToolbar } from '../../photos/TrashActions';

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
      toolbar={<TrashToolbar />}
      describe={(n) => `${n === 1 ? '1 item' : `${n.toLocaleString()} items`} in the trash. Select to restore them, or to delete them permanently.`}
      empty={{ icon: 'trash', title: 'Trash is empty', text: 'Photos you delete wait here, and can be restored.' }}
    />
  );
}
