/**
 * The timeline filter "Shared by": my photos only, or one member who shares their library with me
 * (queryAssets `filter.owner_id`; the server answers a partner's photos whether or not I show them
 * in my timeline). Shown only when someone shares with me.
 */
import { useMe } from '../../api/use-me';
import { usePartnerShares } from './sharing-api';

/** The name the "Shared by" chip shows for a user id: "Me", or the member who shares with me. */
export function usePersonName(): (userId: string) => string | undefined {
  const me = useMe();
  const shares = usePartnerShares();
  return (userId) => {
    if (me && String(me.user_id) === userId) return 'Me';
    return (shares.data?.received ?? []).find((s) => s.owner && String(s.owner.user_id) === userId)?.owner?.display_name;
  };
}

export function SharedBySelect({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const me = useMe();
  const shares = usePartnerShares();
  const owners = (shares.data?.received ?? []).flatMap((s) => (s.owner ? [s.owner] : []));
  if (!me || (owners.length === 0 && !value)) return null;
  return (
    <label>
      Shared by
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Everyone</option>
        <option value={me.user_id}>Me</option>
        {owners.map((o) => (
          <option key={o.user_id} value={o.user_id}>
            {o.display_name}
          </option>
        ))}
      </select>
    </label>
  );
}
