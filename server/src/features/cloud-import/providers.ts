/**
 * The import providers this server offers: a registry built once by the container from the adapters
 * (adapters/cloud/*). Clients draw their forms from the descriptors; services find a provider by its id.
 */
import { Invalid } from '../../platform/http/errors.ts';
import type { CloudProvider, ProviderDescriptor } from '../../adapters/cloud/provider.ts';

export class ProviderRegistry {
  private readonly byId: Map<string, CloudProvider>;

  constructor(providers: readonly CloudProvider[]) {
    this.byId = new Map(providers.map((p) => [p.descriptor.id, p]));
  }

  descriptors(): ProviderDescriptor[] {
    return [...this.byId.values()].map((p) => p.descriptor);
  }

  title(id: string): string {
    return this.byId.get(id)?.descriptor.title ?? id;
  }

  /** The provider of this id; an unknown id is the request's fault (422 `unknown_provider`). */
  require(id: string, field = 'body.provider'): CloudProvider {
    const p = this.byId.get(id);
    if (!p || p.descriptor.status !== 'enabled') {
      throw new Invalid(`There is no import provider "${id}" on this server.`, [{ field, message: `one of: ${[...this.byId.keys()].join(', ')}` }], 'unknown_provider');
    }
    return p;
  }

  /** For runs of credentials made before a provider was removed: undefined, not a throw. */
  find(id: string): CloudProvider | undefined {
    return this.byId.get(id);
  }
}
