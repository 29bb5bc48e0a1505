/** Reachability on the household's network (an extension operation, see server/operations.extensions.md). */
import { z } from '@hono/zod-openapi';
import { defineRoute } from '../../platform/http/router.ts';
import { jsonResponse } from '../../platform/http/responses.ts';

const ListeningSchema = z.object({
  address: z.string().openapi({ example: '127.0.0.1' }),
  family: z.enum(['IPv4', 'IPv6']),
  port: z.number().int(),
});

const PhoneAddressSchema = z
  .object({
    url: z.string().openapi({ example: 'http://192.168.1.20:6680' }),
    address: z.string(),
    family: z.enum(['IPv4', 'IPv6']),
    interface: z.string().openapi({ description: 'The network interface (eth0, wlan0, en0…).' }),
    qr_svg: z.string().openapi({ description: 'A QR code of `url`, as SVG text.' }),
  })
  .openapi('PhoneAddress');

export const NetworkStatusSchema = z
  .object({
    allow_other_devices: z.boolean().openapi({ description: 'The stored setting (`network.allow_other_devices` of the system settings).' }),
    fixed_by_environment: z.boolean().openapi({ description: 'HEARTH_HOST is set and decides where Hearth listens; the setting cannot be changed.' }),
    environment_host: z.string().nullable().openapi({ description: 'The value of HEARTH_HOST when it is set.' }),
    reachable_from_network: z.boolean().openapi({ description: 'Some listening socket is not on loopback: other devices can connect.' }),
    port: z.number().int().nullable(),
    listening: z.array(ListeningSchema).openapi({ description: 'The sockets listening now.' }),
    addresses: z.array(PhoneAddressSchema).openapi({
      description: 'Every non-internal IPv4 and IPv6 address of this machine with the port (IPv6 link-local left out: browsers cannot open it). Listed also while local-only, so the page can say what to turn on.',
    }),
  })
  .openapi('NetworkStatus');

export const getNetworkStatus = defineRoute('admin', {
  method: 'get',
  path: '/system/network',
  operationId: 'getNetworkStatus',
  summary: 'Where Hearth listens and the addresses (with QR codes) other devices should open',
  tags: ['Users and settings'],
  responses: { 200: jsonResponse(NetworkStatusSchema) },
});
