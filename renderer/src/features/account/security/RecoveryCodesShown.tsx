/**
 * Ten recovery codes, shown this once (the server keeps only their hashes): to download as a text
 * file, print or copy, each usable once to sign in when the phone with the authenticator is lost.
 */
import { Button } from '../../../components/Button';
import { CopyableSecret } from '../../../components/CopyableSecret';

interface RecoveryCodesShownProps {
  codes: string[];
  generatedAt: string;
  username: string;
  onDone: () => void;
}

/** The codes as a text file's lines, with what they are and where they work. */
function codesText(codes: string[], generatedAt: string, username: string): string {
  return [
    `Hearth recovery codes for ${username}`,
    `Made ${new Date(generatedAt).toLocaleString()}. Each code signs in once, instead of a code from your authenticator app.`,
    'Making new codes stops these from working.',
    '',
    ...codes,
    '',
  ].join('\n');
}

function download(text: string, username: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `hearth-recovery-codes-${username}.txt`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Prints the codes alone, from a frame of their own (the page around them stays out of the print). */
function print(text: string): void {
  const frame = document.createElement('iframe');
  frame.className = 'print-frame';
  frame.setAttribute('aria-hidden', 'true');
  document.body.append(frame);
  const doc = frame.contentDocument;
  if (!doc) return frame.remove();
  const pre = doc.createElement('pre');
  pre.textContent = text;
  pre.style.font = '14pt/1.6 monospace';
  doc.body.append(pre);
  frame.contentWindow?.addEventListener('afterprint', () => frame.remove());
  frame.contentWindow?.print();
}

export function RecoveryCodesShown({ codes, generatedAt, username, onDone }: RecoveryCodesShownProps) {
  const text = codesText(codes, generatedAt, username);
  return (
    <div className="recovery-codes">
      <div className="notice notice--info" role="status">
        Save these recovery codes now: they are shown only this once. Each one signs you in once if you lose the phone with your authenticator app.
      </div>
      <ol className="recovery-codes__list" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <CopyableSecret label="All codes, to copy" value={codes.join(' ')} />
      <div className="form__actions">
        <Button variant="secondary" onClick={() => download(text, username)}>
          Download as a text file
        </Button>
        <Button variant="secondary" onClick={() => print(text)}>
          Print
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
    </div>
  );
}
