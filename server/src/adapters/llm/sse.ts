/**
 * Server-sent events, read incrementally as chat-completion streams send them: lines end in LF, CRLF or CR;
 * `data:` lines of one event are joined with LF; an empty line ends the event; `:` lines are comments (some servers
 * send them as keep-alives); other fields (`event:`, `id:`, `retry:`) are ignored, since chat completions do not
 * use them. Bytes are decoded as UTF-8 across chunk boundaries, so a character split between two chunks is not
 * mangled.
 */
import { StringDecoder } from 'node:string_decoder';

export class SseReader {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private data: string[] = [];
  /** A CR ended the last chunk: an LF at the start of the next one belongs to it. */
  private skipLf = false;
  /** Lines seen that were neither data, comment, nor another SSE field: how garbage is told apart from a stream. */
  strayLines = 0;

  /** The data of every event the bytes complete. */
  push(bytes: Buffer): string[] {
    return this.lines(this.decoder.write(bytes));
  }

  /** The data of the event left open at the end of the stream, if any. */
  end(): string[] {
    const out = this.lines(this.decoder.end());
    if (this.pending !== '') out.push(...this.line(this.pending));
    this.pending = '';
    if (this.data.length > 0) out.push(this.data.join('\n'));
    this.data = [];
    return out;
  }

  private lines(text: string): string[] {
    const out: string[] = [];
    let start = 0;
    if (this.skipLf && text.startsWith('\n')) start = 1;
    this.skipLf = false;
    const all = this.pending + text.slice(start);
    let from = 0;
    for (let i = 0; i < all.length; i++) {
      const ch = all[i];
      if (ch !== '\n' && ch !== '\r') continue;
      out.push(...this.line(all.slice(from, i)));
      if (ch === '\r') {
        if (i + 1 < all.length && all[i + 1] === '\n') i++;
        else if (i + 1 === all.length) this.skipLf = true;
      }
      from = i + 1;
    }
    this.pending = all.slice(from);
    return out;
  }

  private line(line: string): string[] {
    if (line === '') {
      if (this.data.length === 0) return [];
      const event = this.data.join('\n');
      this.data = [];
      return [event];
    }
    if (line.startsWith(':')) return [];
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field !== 'event' && field !== 'id' && field !== 'retry') this.strayLines++;
    return [];
  }
}
