import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useState } from 'react';

/**
 * A small history-API router: the app has a dozen pages and needs nothing more than the
 * path, the query string and links that do not reload the page.
 */
/**
 * Set by every navigation (a link, `navigate`, the browser's back and forward), taken by the
 * next page heading that mounts: focus then moves to it, so a screen reader announces the
 * new page and the keyboard starts from its top. The first page of a visit is not focused.
 */
let headingFocusPending = false;
if (typeof window !== 'undefined') {
  window.addEventListener('popstate', () => {
    headingFocusPending = true;
  });
}

/** Whether the heading now mounting should take the focus (only the first after a navigation does). */
export function takeHeadingFocus(): boolean {
  const pending = headingFocusPending;
  headingFocusPending = false;
  return pending;
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function useLocation(): { path: string; query: URLSearchParams } {
  const [href, setHref] = useState(() => window.location.pathname + window.location.search);
  useEffect(() => {
    const update = () => setHref(window.location.pathname + window.location.search);
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  const url = new URL(href, window.location.origin);
  return { path: url.pathname, query: url.searchParams };
}

/** Matches `/records/:id` against a path; returns the parameters or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.replace(/\/$/, '').split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [i, w] of want.entries()) {
    const g = got[i];
    if (g === undefined) return null;
    if (w.startsWith(':')) params[w.slice(1)] = decodeURIComponent(g);
    else if (w !== g) return null;
  }
  return params;
}

export function Link({ to, ...props }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    props.onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    event.preventDefault();
    navigate(to);
  };
  return <a {...props} href={to} onClick={onClick} />;
}
