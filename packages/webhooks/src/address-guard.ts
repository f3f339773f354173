import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { missing } from '@crm/domain';

/**
 * Destinations are checked on the resolved address, when a URL is registered and on every send
 * (at connect time, so DNS rebinding does not pass). Loopback, private, link-local, CGNAT,
 * multicast, reserved and cloud-metadata addresses are refused, IPv4-mapped IPv6 forms too,
 * unless the operator allows them (`WEBHOOK_ALLOW_CIDRS`). See docs/webhooks.md, "Destinations".
 */

/** Addresses the operator lets through whatever they are (`WEBHOOK_ALLOW_CIDRS`). */
export interface AllowList {
  readonly cidrs: readonly string[];
  includes(ip: string): boolean;
}

/** Every address a name resolves to; injectable so tests never query real DNS. */
export type Resolver = (hostname: string) => Promise<readonly string[]>;

export class AddressRefusedError extends Error {
  override readonly name = 'AddressRefusedError';
  constructor(
    message: string,
    /** What is wrong: an address class ("loopback", "IPv4-mapped private"…) or a URL problem. */
    readonly reason: string,
    /** The refused address, when the refusal is about one. */
    readonly address?: string,
  ) {
    super(message);
  }
}

function parseCidr(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, ...rest] = entry.split('/');
  const version = address.includes('%') ? 0 : isIP(address);
  if (version === 0 || rest.length > 0) return null;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

function blockListOf(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const text of cidrs) {
    const cidr = parseCidr(text);
    if (!cidr) throw new Error(`invalid built-in CIDR ${text}`);
    list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  return list;
}

/** Parses a comma-separated list of CIDRs (a bare address means /32 or /128). */
export function parseAllowList(value: string | undefined): AllowList {
  const cidrs = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of cidrs) {
    if (!parseCidr(entry)) {
      throw new Error(
        `WEBHOOK_ALLOW_CIDRS: "${entry}" is not an IPv4 or IPv6 CIDR (expected e.g. 127.0.0.1/32 or ::1/128)`,
      );
    }
  }
  const list = blockListOf(cidrs);
  return {
    cidrs,
    includes: (ip) => {
      const version = isIP(ip);
      return version !== 0 && list.check(ip, version === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

// Most specific first: 169.254.169.254 is reported as cloud metadata, not as link-local.
const V4_RULES: ReadonlyArray<readonly [string, readonly string[]]> = [
  // 168.63.129.16 is Azure's host endpoint (WireServer): public-looking but internal.
  ['cloud metadata', ['169.254.169.254/32', '168.63.129.16/32']],
  ['unspecified', ['0.0.0.0/32']],
  ['loopback', ['127.0.0.0/8']],
  ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']],
  ['link-local', ['169.254.0.0/16']],
  ['CGNAT', ['100.64.0.0/10']],
  ['multicast', ['224.0.0.0/4']],
  ['broadcast', ['255.255.255.255/32']],
  ['reserved', ['0.0.0.0/8', '192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '198.18.0.0/15']],
  ['reserved', ['198.51.100.0/24', '203.0.113.0/24', '240.0.0.0/4']],
];

const V6_RULES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['cloud metadata', ['fd00:ec2::254/128']],
  ['unspecified', ['::/128']],
  ['loopback', ['::1/128']],
  ['private', ['fc00::/7']],
  ['link-local', ['fe80::/10']],
  ['multicast', ['ff00::/8']],
  // 2001::/23 holds Teredo and other IETF protocol assignments; 3fff::/20 is documentation too.
  ['reserved', ['fec0::/10', '2001:db8::/32', '3fff::/20', '100::/64', '64:ff9b:1::/48', '2001::/23']],
];

const v4Lists = V4_RULES.map(([reason, cidrs]) => [reason, blockListOf(cidrs)] as const);
const v6Lists = V6_RULES.map(([reason, cidrs]) => [reason, blockListOf(cidrs)] as const);
// Anything outside global unicast (::/96 IPv4-compatible, 100::/64, …) is not a destination.
const globalUnicast = blockListOf(['2000::/3']);

function classify(ip: string, family: 'ipv4' | 'ipv6'): string | null {
  for (const [reason, list] of family === 'ipv4' ? v4Lists : v6Lists) {
    if (list.check(ip, family)) return reason;
  }
  return family === 'ipv6' && !globalUnicast.check(ip, 'ipv6') ? 'reserved' : null;
}

/** The eight 16-bit groups of a valid IPv6 address (a dotted IPv4 tail is folded in). */
function hextets(ip: string): number[] {
  let text = ip;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((group) => Number.parseInt(group, 16));
}

const dottedFrom = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * IPv6 forms that carry an IPv4 destination: a connect to them reaches (or is translated to)
 * that IPv4 address, so the embedded address is what gets judged.
 */
function embeddedV4(ip: string): { label: string; v4: string } | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = hextets(ip);
  const zeroTo4 = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroTo4 && g5 === 0xffff) return { label: 'IPv4-mapped', v4: dottedFrom(g6, g7) };
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return { label: 'NAT64', v4: dottedFrom(g6, g7) };
  }
  if (g0 === 0x2002) return { label: '6to4', v4: dottedFrom(g1, g2) };
  return null;
}

/**
 * Why an outgoing request may not connect to `ip`, or null when it may (docs/webhooks.md,
 * "Destinations").
 */
export function isForbiddenAddress(ip: string, allow: AllowList): string | null {
  const address = ip.replace(/%.*$/, ''); // a zone id does not change the address class
  const version = isIP(address);
  if (version === 0) return 'not an IP address';
  if (allow.includes(address)) return null;
  if (version === 4) return classify(address, 'ipv4');
  const embedded = embeddedV4(address);
  if (embedded) {
    if (allow.includes(embedded.v4)) return null;
    const reason = classify(embedded.v4, 'ipv4');
    return reason && `${embedded.label} ${reason}`;
  }
  return classify(address, 'ipv6');
}

const withArticle = (words: string) => `${/^[aeiou]/i.test(words) ? 'an' : 'a'} ${words}`;

/** Throws AddressRefusedError when `ip` is a forbidden destination. */
export function assertAllowedAddress(ip: string, allow: AllowList): void {
  const reason = isForbiddenAddress(ip, allow);
  if (reason) {
    throw new AddressRefusedError(
      `webhook URL resolves to ${ip}, ${withArticle(reason)} address`,
      reason,
      ip,
    );
  }
}

/** Parses `url` and refuses what no address could make acceptable: scheme, credentials, no host. */
export function parseDestination(url: string): URL {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new AddressRefusedError('webhook URL is not a valid absolute URL', 'invalid URL');
  }
  const refuse = (message: string, reason: string) =>
    new AddressRefusedError(`webhook URL ${message}`, reason);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw refuse(`must use http or https, not ${target.protocol.slice(0, -1)}`, 'unsupported scheme');
  }
  if (target.username !== '' || target.password !== '') {
    throw refuse('must not contain a user name or password', 'credentials in URL');
  }
  if (target.hostname === '') throw refuse('has no host', 'no host');
  return target;
}

/** The host of `url` when it is an IP literal (WHATWG URL already normalised `127.1`, `0x7f000001`…). */
export function ipLiteral(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) === 0 ? null : host;
}

const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Registration check. Every address a name resolves to must be acceptable, because a later
 * connect may pick any of them.
 */
export async function checkUrl(url: string, allow: AllowList, resolve = systemResolver): Promise<URL> {
  const target = parseDestination(url);
  const literal = ipLiteral(target);
  let failure = 'no address';
  const addresses = literal
    ? [literal]
    : await resolve(target.hostname).catch((err: NodeJS.ErrnoException) => {
        failure = err.code ?? String(err);
        return [];
      });
  if (addresses.length === 0) {
    const message = `webhook URL host ${target.hostname} does not resolve (${failure})`;
    throw new AddressRefusedError(message, 'unresolvable');
  }
  for (const address of addresses) assertAllowedAddress(address, allow);
  return target;
}

/**
 * A `lookup` for `http.request`: the guard runs on the very addresses the socket will connect
 * to, which is what defeats DNS rebinding. Handles the `all: true` form Node uses with
 * autoSelectFamily. Any forbidden address fails the connection, as at registration.
 */
export function guardedLookup(allow: AllowList, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    const wanted = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    const pick = async () => {
      const found = (await resolve(hostname)).filter((ip) => wanted === 0 || isIP(ip) === wanted);
      if (found.length === 0) {
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
      }
      for (const address of found) assertAllowedAddress(address, allow);
      return found.map((address) => ({ address, family: isIP(address) }));
    };
    pick().then(
      (found) => {
        const first = found[0] ?? missing('found[0]');
        if (options.all) callback(null, found);
        else callback(null, first.address, first.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}
