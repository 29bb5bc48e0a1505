/**
 * "Find duplicates": detection now, in every folder of the household (duplicates-api.ts), with what it
 * is doing while it runs and what it found after. Detection also runs by itself after new photos are
 * processed, so this is for someone who wants to know now; a run already under way is said so
 * (detection-outcome.ts), not shown as an error.
 */
import { messageOf } from '../../api/problem';
import { Button } from '../../components/Button';
import { describeDetection } from './detection-outcome';
import { useDetectDuplicates } from './duplicates-api';

export function FindDuplicates() {
  const detect = useDetectDuplicates();
  const report = detect.data ? describeDetection(detect.data) : null;
  return (
    <div className="dup-find">
      <Button variant="secondary" onClick={() => detect.mutate()} busy={detect.isPending} busyLabel="Looking for duplicates…">
        Find duplicates
      </Button>
      {/* Always in the page, so what appears in it is read out. */}
      <div role="status" className="dup-find__status">
        {detect.isPending && <p>Comparing your photos; this takes a moment in a large library.</p>}
        {report && <p className={`notice notice--${report.tone === 'error' ? 'error' : report.tone === 'info' ? 'info' : 'success'}`}>{report.text}</p>}
        {detect.isError && <p className="notice notice--error">{messageOf(detect.error)}</p>}
      </div>
    </div>
  );
}
