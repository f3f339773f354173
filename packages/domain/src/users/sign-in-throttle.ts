import { isIPv4, isIPv6 } from 'node:net';
import type { Database } from '@crm/db';
import {
  consumeRateLimitMany,
  type RateLimitResult,
  releaseRateLimit,
} from '../rate-limit/consume-rate-limit.ts';
import { DomainError } from '../shared/errors.ts';
import { missing } from '../shared/missing.ts';

/** Failed sign-ins are counted in a sliding window of 15 minutes. */
const SIGN_IN_WINDOW_MS = 15 * 60_000;

/** How many failed sign-ins each throttle allows in the window (docs/web-app.md). */
export interface SignInLimits {
  /** From one client address, whatever the accounts tried. */
  perAddress: number;
  /** For one account from one client address (the account lock). */
  perAccount: number;
  /** From all addresses together; beyond it, addresses that failed recently are refused. */
  global: number;
}

const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perAddress: 20, perAccount: 10, global: 1000 };

/** Who is trying: the client address and, when known, the account (a normalized email). */
export interface SignInAttempt {
  address: string;
  account?: string;
}

interface Held {
  subject: string;
  windowStart: number;
}

/**
 * A failure reserved in each throttle before a password is checked. A failed attempt keeps
 * them (that is how failures are counted); `release` gives them back. Reserving first keeps
 * the count exact under concurrency: with the limit at 20, 200 attempts sent at once from one
 * address get 20 password checks, not 200.
 */
interface SignInPass {
  release(): Promise<void>;
}

/**
 * The key failures of an address are counted under: an IPv4 address as it is (an IPv4-mapped
 * IPv6 one as its IPv4 form), an IPv6 address by its /64 (one subscriber's network gets a whole
 * /64), a port some proxies append left out, anything else as given, cut to 100 characters.
 */
export function addressKey(address: string): string {
  const trimmed = address.trim();
  const withPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(trimmed) ?? /^\[([^\]]+)\](?::\d+)?$/.exec(trimmed);
  const text = withPort ? (withPort[1] ?? missing('withPort[1]')) : trimmed;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text);
  if (mapped && isIPv4(mapped[1] ?? missing('mapped[1]'))) return mapped[1] ?? missing('mapped[1]');
  if (isIPv4(text)) return text;
  if (isIPv6(text)) return `${expandIPv6(text).slice(0, 4).join(':')}::/64`;
  return `other:${text.slice(0, 100)}`;
}

function expandIPv6(address: string): string[] {
  const bare = address.split('%')[0] ?? missing("address.split('%')[0]");
  const [head = '', tail] = bare.split('::');
  const part = (text: string) => (text ? text.split(':') : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  // An embedded IPv4 tail (::a.b.c.d) stands for two groups; the prefix never reaches it.
  const groups = (list: string[]) => list.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const middle = Array.from({ length: Math.max(0, 8 - groups(left) - groups(right)) }, () => '0');
  return [...left, ...middle, ...right].map((g) =>
    g.includes('.') ? g : g.toLowerCase().replace(/^0+(?=.)/, ''),
  );
}

const rateLimited = (result: RateLimitResult, what: string) =>
  new DomainError(
    'RATE_LIMITED',
    `Too many failed sign-ins ${what}; retry in ${result.retryAfterSeconds} s`,
    { retryAfterSeconds: result.retryAfterSeconds },
  );

/**
 * Checks the sign-in throttles for an attempt and reserves a failure in each; throws
 * RATE_LIMITED (with Retry-After) when one is full. The throttles, all on failed attempts in a
 * sliding 15-minute window kept in rate_limit_buckets:
 *   - per address: `perAddress` failures, then every attempt from there is refused;
 *   - per account and address: `perAccount` failures, then that account is locked for that
 *     address only, so its owner still signs in from elsewhere;
 *   - overall: past `global` failures from everywhere, addresses with a failure in the
 *     window are refused; addresses without one still get their password checked.
 */
async function reserveSignInAttempt(
  db: Database,
  attempt: SignInAttempt,
  limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS,
  now: number = Date.now(),
): Promise<SignInPass> {
  const held: Held[] = [];
  const take = async (subject: string, limit: number) => {
    const grant = await consumeRateLimitMany(db, subject, limit, 1, now, SIGN_IN_WINDOW_MS);
    if (grant.granted === 1) held.push({ subject, windowStart: grant.windowStart });
    return { ...grant.resultOf(0), usedBefore: grant.usedBefore };
  };
  const giveBack = async () => {
    for (const { subject, windowStart } of held.splice(0)) await releaseRateLimit(db, subject, windowStart);
  };
  const address = addressKey(attempt.address);
  try {
    const byAddress = await take(`sign-in:address:${address}`, limits.perAddress);
    if (!byAddress.allowed) throw rateLimited(byAddress, 'from this address');
    // A failure in the window (or an attempt still in flight) from this address.
    const failedRecently = byAddress.usedBefore > 0;
    if (attempt.account !== undefined) {
      const byAccount = await take(`sign-in:account:${address} ${attempt.account}`, limits.perAccount);
      if (!byAccount.allowed) throw rateLimited(byAccount, 'for this account from this address');
    }
    const overall = await take('sign-in:all', limits.global);
    if (!overall.allowed && failedRecently) throw rateLimited(overall, 'overall');
  } catch (error) {
    await giveBack();
    throw error;
  }
  return { release: giveBack };
}

/**
 * Runs a password check under the throttles: an UNAUTHORIZED from `check` is a failed
 * sign-in and stays counted; success, or any other error, does not count.
 */
export async function throttledSignIn<T>(
  db: Database,
  attempt: SignInAttempt,
  limits: SignInLimits | undefined,
  check: () => Promise<T>,
): Promise<T> {
  const pass = await reserveSignInAttempt(db, attempt, limits);
  try {
    const result = await check();
    await pass.release();
    return result;
  } catch (error) {
    if (!(error instanceof DomainError && error.code === 'UNAUTHORIZED')) await pass.release();
    throw error;
  }
}
