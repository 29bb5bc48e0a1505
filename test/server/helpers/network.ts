/** This machine's network, as the reachability and invite tests see it. */
import os from 'node:os';

/** This machine's first non-internal IPv4 address (eth0 in a container), or null on a machine without one. */
export function lanAddress(): string | null {
  for (const infos of Object.values(os.networkInterfaces())) {
    for (const i of infos ?? []) if (!i.internal && i.family === 'IPv4') return i.address;
  }
  return null;
}
