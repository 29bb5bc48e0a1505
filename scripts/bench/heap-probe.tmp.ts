import v8 from 'node:v8';
import { startRowsOnlyServer, signIn, BENCH_PASSWORD } from './loop-watch.ts';
const server = await startRowsOnlyServer('hearth-heap-probe-');
await signIn(server.base, 'bench', BENCH_PASSWORD);
for (let i = 0; i < 3; i++) { (globalThis as { gc?: () => void }).gc?.(); await new Promise((r) => setTimeout(r, 200)); }
console.log('heapUsed MB', (process.memoryUsage().heapUsed / 1e6).toFixed(1));
console.log(v8.writeHeapSnapshot('/tmp/p4/idle.heapsnapshot'));
await server.close();
process.exit(0);
