/**
 * The C allocator's free pages go back to the system when the server gives back memory while idle
 * (platform/cache/give-back-memory.ts → native-heap.ts): glibc alone returns only the top of its arenas,
 * so memory freed between blocks still in use stays resident. The holes are made for real (Buffers small
 * enough to come from malloc's arenas, nine in ten dropped); the delay before the give-back is simulated
 * with node:test's mock timers. Memory is read from /proc (Linux with glibc: where the trim exists).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test, mock } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { giveBackMemory } from '../../../server/src/platform/cache/give-back-memory.ts';

/** The process's anonymous resident memory, MB. */
const anonMb = () => Number(/^RssAnon:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

test('memory freed between blocks still in use goes back to the system when memory is given back', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    // 150,000 blocks of 1–2 KB (below every mmap threshold: they come from the arenas); one in ten kept,
    // so the freed nine tenths lie between kept blocks, where glibc's own trimming of the top never reaches.
    const kept: Buffer[] = [];
    let dropped: Buffer[] | null = [];
    for (let i = 0; i < 150_000; i++) (i % 10 === 0 ? kept : dropped).push(Buffer.allocUnsafeSlow(1024 + (i % 1024)).fill(i & 255));
    const allocated = anonMb();
    dropped = null;
    collect();
    collect(); // the second waits for the first one's freeing of the blocks, done beside the main thread
    const freed = anonMb();
    assert.ok(freed > allocated - 60, `glibc keeps what was freed between kept blocks (${allocated.toFixed(0)} → ${freed.toFixed(0)} MB)`);
    giveBackMemory();
    mock.timers.tick(1000);
    const after = anonMb();
    assert.ok(after < freed - 100, `most of the ~200 MB freed is given back (${freed.toFixed(0)} → ${after.toFixed(0)} MB)`);
    assert.equal(kept.every((b, i) => b[0] === ((i * 10) & 255)), true, 'the blocks in use are untouched');
  } finally {
    mock.timers.reset();
  }
});
