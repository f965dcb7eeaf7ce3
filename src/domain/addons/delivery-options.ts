/** How addon deliveries are made (issue 11); every value has an environment variable (src/config.ts). */
export interface DeliveryOptions {
  /** ADDON_ALLOW_PRIVATE_URLS: allow addon URLs on loopback, private, link-local and metadata addresses (tests). */
  allowPrivateUrls: boolean;
  /** ADDON_TIMEOUT_MS: how long one attempt may take, redirects included (default 10 s). */
  timeoutMs: number;
  /** ADDON_MAX_ATTEMPTS: attempts before a delivery is `failed` (default 5). */
  maxAttempts: number;
  /** ADDON_RETRY_BASE_MS: the wait before the second attempt; each later wait doubles, with jitter (default 5 s). */
  retryBaseMs: number;
  /** ADDON_POLL_MS: how often a worker looks for due deliveries when nothing woke it (default 1 s). */
  pollMs: number;
  /**
   * ADDON_LEASE_MS: how long a claimed delivery stays with its worker; if the worker dies, it is due again after
   * this (default: the timeout plus 20 s, so a live worker always answers first).
   */
  leaseMs: number;
  /** ADDON_CONCURRENCY: deliveries one worker sends at once (default 8). */
  concurrency: number;
}

export const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = {
  allowPrivateUrls: false,
  timeoutMs: 10_000,
  maxAttempts: 5,
  retryBaseMs: 5_000,
  pollMs: 1_000,
  leaseMs: 30_000,
  concurrency: 8,
};
