/** apps/web/dist, where the built app is written. */
export declare const WEB_DIST: string;
/** True when dist/ is missing or older than the app's sources. */
export declare function isStale(): boolean;
/** Builds the app with Vite when it is stale, one process at a time; resolves whether it built. */
export declare function ensureBuilt(options?: { log?: (line: string) => void }): Promise<{ built: boolean }>;
