import { useEffect, useState } from 'react';

let show: ((message: string) => void) | null = null;

/** How long a message stays on the line. */
const SHOWN_MS = 8000;

/**
 * Says `message` through the app's one live region (StatusLine): what an action did ("Moved
 * … to Qualified.") or why it failed. Polite: a screen reader finishes what it is reading
 * first. The line shows the message as well, for a few seconds.
 */
export function announce(message: string): void {
  show?.(message);
}

/**
 * The app's only live region, rendered once by the app around every page. Each message is
 * a new node, so the same text said twice is announced twice.
 */
export function StatusLine() {
  const [said, setSaid] = useState<{ message: string; n: number } | null>(null);
  useEffect(() => {
    show = (message) => setSaid((last) => ({ message, n: (last?.n ?? 0) + 1 }));
    return () => {
      show = null;
    };
  }, []);
  // Shown for a while, then the line clears (a screen reader has said it by then).
  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(null), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [said]);
  return (
    <div className="status-line" role="status" aria-live="polite">
      {said?.message ? <p key={said.n}>{said.message}</p> : null}
    </div>
  );
}
