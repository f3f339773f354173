import type { ApiServices } from '@crm/api';
import { invalid } from '@crm/domain';
import {
  AddressRefusedError,
  type AllowList,
  checkUrl,
  type DeliveryOptions,
  parseAllowList,
} from '@crm/webhooks';
import type { Env } from './env.ts';

/** How this process reaches out: the address guard's allow list, timeouts and retry pace. */
export function outboundSettings(env: Env): DeliveryOptions & { allow: AllowList } {
  return {
    allow: parseAllowList(env.WEBHOOK_ALLOW_CIDRS),
    retry: { scale: env.WEBHOOK_RETRY_SCALE, jitter: 0.2 },
    connectTimeoutMs: env.WEBHOOK_CONNECT_TIMEOUT_MS,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
  };
}

const DNS_FAILURES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'ENODATA']);

/**
 * The services procedures use; a refused URL is a 400 naming `url`. `baseUrl` is set once
 * the server knows its address (PUBLIC_URL, else where it listens).
 */
export function apiServices(allow: AllowList, baseUrl = ''): ApiServices {
  return {
    baseUrl,
    async checkOutboundUrl(url) {
      try {
        await checkUrl(url, allow);
      } catch (error) {
        if (error instanceof AddressRefusedError) throw invalid('url', error.message);
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && DNS_FAILURES.has(code))
          throw invalid('url', `its host could not be resolved (${code})`);
        throw error;
      }
    },
  };
}
