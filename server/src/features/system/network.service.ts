/**
 * Where the server listens, and the addresses phones on the household's network should open.
 *
 * - HEARTH_HOST set: the listener stays on it; the setting cannot be changed (the admin page says so).
 * - Otherwise the `network.allow_other_devices` setting decides: off (the default, so `npm start`
 *   stays on 127.0.0.1) listens on 127.0.0.1 only; on listens on 0.0.0.0 and [::]. Changing it
 *   moves the listener at once: new sockets first, old ones closed after (platform/http/listener.ts),
 *   and the new value is stored only once the new sockets listen.
 *
 * Addresses shown: every non-internal IPv4 and IPv6 address of the machine, with the port. IPv6
 * link-local addresses (fe80::/10) are left out on purpose: they need a zone id that browsers do not
 * accept in a URL, so their QR code would open nothing. IPv4 come first: most phones use them.
 */
import os from 'node:os';
import type { SettingsStore, SystemSettings, SystemSettingsPatch } from '../../config/settings.ts';
import type { AppConfig } from '../../config/env.ts';
import type { BindTarget, HttpListener, ListeningAddress } from '../../platform/http/listener.ts';
import { Conflict, Unavailable } from '../../platform/http/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { qrSvg } from '../../adapters/qr/index.ts';

export interface PhoneAddress {
  url: string;
  address: string;
  family: 'IPv4' | 'IPv6';
  interface: string;
  qr_svg: string;
}

const LOCAL_ONLY: BindTarget[] = [{ host: '127.0.0.1' }];
const EVERY_INTERFACE: BindTarget[] = [{ host: '0.0.0.0' }, { host: '::', ipv6Only: true, optional: true }];

export class NetworkService {
  private listener: HttpListener | null = null;

  constructor(
    private readonly settings: SettingsStore,
    private readonly config: Pick<AppConfig, 'host' | 'hostFixed'>,
    private readonly log: Logger,
  ) {}

  /** What to listen on now, from HEARTH_HOST or the stored setting. */
  targets(allowOtherDevices = this.settings.section('network').allow_other_devices): BindTarget[] {
    if (this.config.hostFixed) return [{ host: this.config.host }];
    return allowOtherDevices ? EVERY_INTERFACE : LOCAL_ONLY;
  }

  /** Starts listening where the settings say (main.ts and the test server call this once). */
  async start(listener: HttpListener): Promise<ListeningAddress[]> {
    this.listener = listener;
    return listener.bind(this.targets());
  }

  /**
   * updateSystemSettings: a patch that changes `network` moves the listener before the patch is
   * stored; if storing fails, the listener goes back.
   */
  async applySettings(patch: SystemSettingsPatch, by: number): Promise<SystemSettings> {
    const wanted = patch.network?.allow_other_devices;
    if (wanted === undefined) return this.settings.apply(patch, by);
    if (this.config.hostFixed) {
      throw new Conflict(
        `HEARTH_HOST is set to ${this.config.host}: Hearth listens there whatever this setting says. Remove HEARTH_HOST to choose here.`,
        'network_fixed_by_environment',
      );
    }
    const before = this.settings.section('network').allow_other_devices;
    if (wanted !== before) await this.rebind(wanted);
    try {
      return this.settings.apply(patch, by);
    } catch (e) {
      if (wanted !== before) await this.rebind(before).catch((err: unknown) => this.log.error({ err }, 'listener could not go back'));
      throw e;
    }
  }

  private async rebind(allowOtherDevices: boolean): Promise<void> {
    if (!this.listener) return; // in-process requests only (no socket): the stored setting applies at start
    try {
      const now = await this.listener.bind(this.targets(allowOtherDevices));
      this.log.info({ allow_other_devices: allowOtherDevices, listening: now }, 'listener moved');
    } catch (e) {
      this.log.error({ err: e }, 'listener could not move');
      throw new Unavailable(
        `Hearth could not listen ${allowOtherDevices ? 'on the network' : 'on 127.0.0.1'} (${(e as Error).message}); nothing was changed.`,
        'listener_unavailable',
      );
    }
  }

  listening(): ListeningAddress[] {
    return this.listener?.addresses() ?? [];
  }

  /** True when a socket listens on something other than loopback. */
  reachableFromNetwork(): boolean {
    return this.listening().some((a) => !/^(127\.|::1$)/.test(a.address));
  }

  /** Addresses of this machine a phone can open, with the listener's port. */
  phoneAddresses(): Omit<PhoneAddress, 'qr_svg'>[] {
    const port = this.listener?.actualPort;
    if (!port) return [];
    const fixedHost = this.config.hostFixed && !['0.0.0.0', '::'].includes(this.config.host) ? this.config.host : null;
    const found: Omit<PhoneAddress, 'qr_svg'>[] = [];
    for (const [name, infos] of Object.entries(os.networkInterfaces())) {
      for (const info of infos ?? []) {
        if (info.internal) continue;
        if (info.family === 'IPv6' && /^fe[89ab]/i.test(info.address)) continue;
        if (fixedHost && info.address !== fixedHost) continue;
        const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
        found.push({ url: `http://${host}:${port}`, address: info.address, family: info.family, interface: name });
      }
    }
    return found.sort((a, b) => (a.family === b.family ? 0 : a.family === 'IPv4' ? -1 : 1));
  }

  /** Origins to put in links for phones: the network's when reachable, else the caller's own. */
  linkOrigins(callerOrigin: string): string[] {
    const phones = this.reachableFromNetwork() ? this.phoneAddresses().map((a) => a.url) : [];
    return phones.length ? phones : [callerOrigin];
  }

  async status() {
    const network = this.settings.section('network');
    const addresses = await Promise.all(this.phoneAddresses().map(async (a) => ({ ...a, qr_svg: await qrSvg(a.url) })));
    return {
      allow_other_devices: network.allow_other_devices,
      fixed_by_environment: this.config.hostFixed,
      environment_host: this.config.hostFixed ? this.config.host : null,
      reachable_from_network: this.reachableFromNetwork(),
      port: this.listener?.actualPort ?? null,
      listening: this.listening(),
      addresses,
    };
  }
}
