/** Favourites: everything marked with the heart, by the day it was taken. */
import { AssetCollectionPage } from '../../photos/AssetCollectionPage';

const FILTER = { liked: true };

export function FavouritesPage() {
  return (
    <AssetCollectionPage
      name="favourites"
      title="Favourites"
      filter={FILTER}
      sortBy="date_captured"
      groupByDay
      describe={(n) => (n === 1 ? '1 favourite.' : `${n.toLocaleString()} favourites.`)}
      empty={{ icon: 'heart', title: 'No favourites yet', text: 'Mark a photo with the heart (or press F in the viewer) and it is gathered here.' }}
    />
  );
}
