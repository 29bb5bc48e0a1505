/**
 * The live feed of host actions, in process: every change of an action (created, presented, approved,
 * cancelled, expired…) is published here after it is written, and the two streams that follow actions
 * subscribe: the members' stream (streamHostActions, filtered by who may read what) and the host
 * channel's `/host/v1/events`. A listener that throws is dropped from nothing and harms no other.
 */
import type { HostActionRecord } from './host-actions.store.ts';

export type HostActionListener = (action: HostActionRecord) => void;

export class HostActionEvents {
  private readonly listeners = new Set<HostActionListener>();

  /** Subscribes; the answer unsubscribes. */
  on(listener: HostActionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(action: HostActionRecord): void {
    for (const l of [...this.listeners]) {
      try {
        l(action);
      } catch {
        // A stream whose client went away fails to write: that stream's problem, not the action's.
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
