/**
 * The Board (`/board`): the member's pins, results of the assistant kept to look at again. Each pin is a card
 * (BoardGrid lays them out; PinCard is one). Pins are made from the assistant's result cards ("Pin"), so an
 * empty Board says where to find that. While the assistant is off the server answers 404 `agent_disabled`, and
 * the page says so rather than showing an error.
 */
import { ApiError } from '../../api/problem';
import { EmptyState } from '../../components/EmptyState';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { usePins } from './board-api';
import { BoardGrid } from './BoardGrid';
import './board.css';

export function BoardPage() {
  const pins = usePins();
  const off = pins.error instanceof ApiError && pins.error.code === 'agent_disabled';
  return (
    <>
      <PageHeader title="Board">
        <p>Results you pinned from the assistant. A live pin shows what its request finds now; a frozen one keeps its photos.</p>
      </PageHeader>
      {pins.isPending && <p role="status">Loading…</p>}
      {off && (
        <EmptyState icon="info" title="The assistant is off">
          <p>An administrator turns it on in Assistant settings.</p>
        </EmptyState>
      )}
      {pins.isError && !off && <LoadError error={pins.error} onRetry={() => void pins.refetch()} />}
      {pins.data?.length === 0 && (
        <EmptyState icon="star" title="Nothing pinned yet">
          <p>Ask the assistant something, then press Pin on a result to keep it here.</p>
        </EmptyState>
      )}
      {pins.data && pins.data.length > 0 && <BoardGrid pins={pins.data} />}
    </>
  );
}
