// What the live tests share: the server's URL, and a fetch that fails on purpose.
import { RetryPolicy } from "../dist/index.js";

/**
 * The server under test. `make test` runs these tests from
 * tests/integration/sdk/test_typescript_sdk.py, which starts `haki serve` on
 * a fresh database and passes its URL; without one the live tests fail.
 */
export function serverUrl() {
  const url = process.env.HAKI_TEST_URL;
  if (!url) {
    throw new Error(
      "HAKI_TEST_URL is not set: run these tests through " +
        "`pytest tests/integration/sdk/test_typescript_sdk.py` (it starts haki serve), " +
        "or point HAKI_TEST_URL at a dev-mode server",
    );
  }
  return url;
}

/** A unique subject per test run, so reruns against one server never collide. */
export function unique(prefix) {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Records the waits instead of sleeping them. */
export class RecordingRetry extends RetryPolicy {
  constructor(options) {
    super(options);
    this.waits = [];
  }
  async sleep(seconds) {
    this.waits.push(seconds);
  }
}

/**
 * Forwards to the real server, but answers the first `fail` calls itself
 * with `status` (and `Retry-After`). With `after`, the request is served
 * first and its answer replaced: the write happened, the caller never heard.
 */
export function flakyFetch({ status, fail, after = false, retryAfter = "0" }) {
  const seen = [];
  let left = fail;
  const impl = async (url, init) => {
    seen.push(init?.body ?? null);
    if (left > 0) {
      left -= 1;
      if (after) await (await fetch(url, init)).text();
      return new Response(
        JSON.stringify({ error: { type: "injected", message: "try later", field: null } }),
        { status, headers: { "Retry-After": retryAfter, "Content-Type": "application/json" } },
      );
    }
    return fetch(url, init);
  };
  return { impl, seen };
}
