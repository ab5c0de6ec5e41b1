import { afterEach, describe, expect, it, vi } from "vitest";
import { metricsText, setMetricsSources } from "@server/observability/metrics";

describe("the outbox gauges of a scrape", () => {
  afterEach(() => {
    setMetricsSources({ outboxes: [] });
  });

  it("reads each outbox once for both gauges, and leaves out one the database refused with a warning that says why", async () => {
    let emailReads = 0;
    setMetricsSources({
      outboxes: [
        { name: "email", counts: async () => (emailReads++, { backlog: 3, dead: 1 }) },
        { name: "whatsapp", counts: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:5432")) },
      ],
    });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);

    const { body } = await metricsText();

    expect(body).toMatch(/^shop_outbox_backlog\{outbox="email"\} 3$/m);
    expect(body).toMatch(/^shop_outbox_dead_letters\{outbox="email"\} 1$/m);
    expect(body).not.toMatch(/outbox="whatsapp"/);
    expect(emailReads).toBe(1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/whatsapp outbox's counts are left out of this scrape: .*ECONNREFUSED/);
    warn.mockRestore();
  });

  it("reads them again on the next scrape", async () => {
    let reads = 0;
    setMetricsSources({ outboxes: [{ name: "email", counts: async () => ({ backlog: ++reads, dead: 0 }) }] });
    await metricsText();
    const { body } = await metricsText();
    expect(body).toMatch(/^shop_outbox_backlog\{outbox="email"\} 2$/m);
  });
});
