import type { StoryExpectation } from './payment-stories';

/** The receiver's internal API, where a shop registers what it expects to be paid. */
export interface ApiTarget {
  url: string;
  token: string;
}

/** The mall every simulated notification names (the builders' default). */
const SIMULATED_MALL_ID = 'T0001234';

/**
 * Registers the order's expectation as a shop does before sending its customer to pay, so the
 * faults that need one (a paid amount that differs from it, a payment after it expired) show.
 * Answers null when the API took it, else what went wrong, for the summary's problems.
 */
export async function registerExpectation(api: ApiTarget, shopOrderNo: string, expectation: StoryExpectation, timeoutMs: number): Promise<string | null> {
  const url = new URL(`v1/orders/${SIMULATED_MALL_ID}/${encodeURIComponent(shopOrderNo)}/expectation`, api.url.endsWith('/') ? api.url : `${api.url}/`);
  try {
    const answer = await fetch(url, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${api.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(expectation),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (answer.ok) return null;
    const text = (await answer.text()).slice(0, 200);
    return `PUT ${url.pathname} answered ${answer.status}: ${text}`;
  } catch (error) {
    return `PUT ${url.pathname} failed: ${(error as Error).message} (is --api-url the internal API, API_PORT?)`;
  }
}
