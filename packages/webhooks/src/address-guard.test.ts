import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  AddressRefusedError,
  checkUrl,
  guardedLookup,
  isForbiddenAddress,
  parseAllowList,
  type Resolver,
} from './address-guard.ts';

const none = parseAllowList(undefined);
const noDns: Resolver = async (host) => {
  throw new Error(`test queried DNS for ${host}`);
};
const fixed =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses;

describe('isForbiddenAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'reserved'],
    ['10.0.0.1', 'private'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.0.0.192', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'reserved'],
    ['::127.0.0.1', 'reserved'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped cloud metadata'],
    ['64:ff9b::10.0.0.1', 'NAT64 private'],
    ['64:ff9b::7f00:1', 'NAT64 loopback'],
    ['2002:7f00:1::1', '6to4 loopback'],
    ['not-an-ip', 'not an IP address'],
  ])('%s is refused as %s', (ip, reason) => {
    expect(isForbiddenAddress(ip, none)).toBe(reason);
  });

  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '1.0.0.1',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
  ])('%s is a public destination', (ip) => {
    expect(isForbiddenAddress(ip, none)).toBeNull();
  });

  it('lets through exactly what the allow list names, in any form', () => {
    const allow = parseAllowList('127.0.0.1/32, fd00::/8');
    expect(isForbiddenAddress('127.0.0.1', allow)).toBeNull();
    expect(isForbiddenAddress('::ffff:127.0.0.1', allow)).toBeNull();
    expect(isForbiddenAddress('fd00::5', allow)).toBeNull();
    expect(isForbiddenAddress('127.0.0.2', allow)).toBe('loopback');
    expect(isForbiddenAddress('::1', allow)).toBe('loopback');
    expect(isForbiddenAddress('fc00::1', allow)).toBe('private');
  });
});

describe('parseAllowList', () => {
  it('reads comma-separated IPv4 and IPv6 CIDRs and bare addresses', () => {
    const allow = parseAllowList(' 10.1.0.0/16,::1 ,,192.168.0.7');
    expect(allow.cidrs).toEqual(['10.1.0.0/16', '::1', '192.168.0.7']);
    expect(allow.includes('10.1.200.3')).toBe(true);
    expect(allow.includes('10.2.0.1')).toBe(false);
    expect(allow.includes('::1')).toBe(true);
    expect(allow.includes('192.168.0.7')).toBe(true);
    expect(allow.includes('192.168.0.8')).toBe(false);
  });

  it('is empty when unset or blank', () => {
    expect(parseAllowList(undefined).cidrs).toEqual([]);
    expect(parseAllowList('  ').includes('127.0.0.1')).toBe(false);
  });

  it.each([
    'localhost',
    '127.0.0.1/33',
    '::1/129',
    '10.0.0.0/-1',
    '10.0.0.0/8/8',
    '10.0.0/8',
    '10.0.0.0/x',
    'fe80::1%eth0/128',
  ])('refuses %s with an error naming it', (entry) => {
    expect(() => parseAllowList(`127.0.0.1/32,${entry}`)).toThrow(`"${entry}" is not an IPv4 or IPv6 CIDR`);
  });
});

describe('checkUrl', () => {
  it.each([
    ['http://127.1/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://169.254.169.254/latest/meta-data', 'cloud metadata'],
    ['http://10.0.0.1/', 'private'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://100.64.0.1/', 'CGNAT'],
    ['https://192.168.0.1:8443/hook', 'private'],
    ['ftp://x/', 'unsupported scheme'],
    ['http://user:pw@example.com/', 'credentials in URL'],
    ['http://user@example.com/', 'credentials in URL'],
    ['not a url', 'invalid URL'],
  ])('refuses %s (%s)', async (url, reason) => {
    await expect(checkUrl(url, none, noDns)).rejects.toMatchObject({ name: 'AddressRefusedError', reason });
  });

  it('explains the refusal in words a user understands', async () => {
    const refusal = checkUrl('http://127.1/', none, noDns);
    await expect(refusal).rejects.toBeInstanceOf(AddressRefusedError);
    await expect(refusal).rejects.toThrow('webhook URL resolves to 127.0.0.1, a loopback address');
  });

  it('refuses a name that resolves to loopback', async () => {
    await expect(checkUrl('http://hooks.example.test/x', none, fixed('127.0.0.1'))).rejects.toMatchObject({
      reason: 'loopback',
      address: '127.0.0.1',
    });
  });

  it('refuses a name with one public and one private address', async () => {
    await expect(checkUrl('http://mixed.test/', none, fixed('93.184.215.14', '10.0.0.7'))).rejects.toThrow(
      'webhook URL resolves to 10.0.0.7, a private address',
    );
  });

  it('refuses a name that does not resolve', async () => {
    const nxdomain: Resolver = async () => {
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    };
    await expect(checkUrl('http://nowhere.test/', none, nxdomain)).rejects.toMatchObject({
      reason: 'unresolvable',
    });
    await expect(checkUrl('http://empty.test/', none, fixed())).rejects.toMatchObject({
      reason: 'unresolvable',
    });
  });

  it('accepts public destinations and what the operator allows', async () => {
    const url = await checkUrl('https://hooks.example.test/in', none, fixed('93.184.215.14', '2606:4700::1'));
    expect(url.href).toBe('https://hooks.example.test/in');
    await expect(checkUrl('http://[2606:4700:4700::1111]/', none, noDns)).resolves.toBeInstanceOf(URL);
    await expect(
      checkUrl('http://127.0.0.1:8080/', parseAllowList('127.0.0.1/32'), noDns),
    ).resolves.toBeInstanceOf(URL);
  });
});

describe('guardedLookup', () => {
  const lookup = (resolve: Resolver, options: { all?: boolean; family?: number }) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>(
      (done) =>
        guardedLookup(none, resolve)('h.test', options, (err, address, family) =>
          done({ err, address, family }),
        ),
    );

  it('answers in both the single and the all form, filtered by family', async () => {
    const resolve = fixed('93.184.215.14', '2606:4700::1');
    expect(await lookup(resolve, {})).toMatchObject({ err: null, address: '93.184.215.14', family: 4 });
    expect(await lookup(resolve, { family: 6 })).toMatchObject({ address: '2606:4700::1', family: 6 });
    expect((await lookup(resolve, { all: true })).address).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:4700::1', family: 6 },
    ]);
  });

  it('fails the connection when any address is forbidden', async () => {
    const { err } = await lookup(fixed('93.184.215.14', '::ffff:169.254.169.254'), { all: true });
    expect(err).toBeInstanceOf(AddressRefusedError);
    expect((err as AddressRefusedError).reason).toBe('IPv4-mapped cloud metadata');
  });

  it('reports a name with no address of the wanted family as not found', async () => {
    expect((await lookup(fixed('93.184.215.14'), { family: 6 })).err?.code).toBe('ENOTFOUND');
  });
});
