import { describe, expect, it } from "vitest";
import { useBrowser, waitForHydration } from "../support/e2e";

describe("loading splash and scroll reveal", () => {
  const shop = useBrowser();

  it("shows the splash on a session's first page for 800 ms, then fades the page in 100 ms later over 1 s rising 16 px; not on the next page", async () => {
    const { page, expectClean, close } = await shop.open({ reducedMotion: "no-preference" });
    await page.goto(`${shop.baseURL()}/`);
    const splash = page.getByTestId("splash");
    expect(await splash.getByText("Cargando experiencia...").count()).toBe(1);
    expect(await splash.getByText("Vida Alcalina").count()).toBe(1);
    const timing = await page.evaluate(() => {
      const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
      return {
        display: style(".splash").display,
        splash: style(".splash").animationDelay,
        progress: style(".splash-progress").animationDuration,
        contentDelay: style(".splash-content").animationDelay,
        contentDuration: style(".splash-content").animationDuration,
      };
    });
    expect(timing).toEqual({ display: "flex", splash: "0.8s", progress: "0.8s", contentDelay: "0.9s", contentDuration: "1s" });
    const from = await page.evaluate(() => {
      const rule = [...document.styleSheets]
        .flatMap((sheet) => [...sheet.cssRules])
        .find((candidate) => candidate instanceof CSSKeyframesRule && candidate.name === "content-in") as CSSKeyframesRule;
      return (rule.cssRules[0] as CSSKeyframeRule).style.transform;
    });
    expect(from).toBe("translateY(16px)");
    await splash.waitFor({ state: "hidden" });

    // Decision 0054: the splash greets once per browser session. The next page of this tab's
    // session is the same shared HTML, but neither shows the splash nor holds its content back.
    await page.goto(`${shop.baseURL()}/tienda`);
    const later = await page.evaluate(() => ({
      splash: getComputedStyle(document.querySelector(".splash")!).display,
      content: getComputedStyle(document.querySelector(".splash-content")!).animationName,
      opacity: getComputedStyle(document.querySelector(".splash-content")!).opacity,
    }));
    expect(later).toEqual({ splash: "none", content: "none", opacity: "1" });
    expectClean();
    await close();
  });

  it("holds nothing back behind the splash: the first page's modules are asked for before its first paint and hydrate as React Router wrote them", async () => {
    const { page, expectClean, close } = await shop.open({ reducedMotion: "no-preference" });
    const response = await page.goto(`${shop.baseURL()}/`);
    expect(await response!.text()).not.toContain('type="text/plain"');
    await waitForHydration(page);
    await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0, undefined, { polling: 50 });
    const { paint, modules } = await page.evaluate(() => ({
      paint: performance.getEntriesByName("first-contentful-paint")[0]!.startTime,
      modules: performance
        .getEntriesByType("resource")
        .filter((entry) => /^\/assets\/[^/]+\.js$/.test(new URL(entry.name).pathname))
        .map((entry) => entry.startTime),
    }));
    expect(modules.length).toBeGreaterThan(1);
    expect(Math.min(...modules)).toBeLessThan(paint);
    expect(await page.getByTestId("splash").count()).toBe(1);
    expectClean();
    await close();
  });

  it("skips the splash entirely under reduced motion", async () => {
    const { page, close } = await shop.open({ reducedMotion: "reduce" });
    await page.goto(`${shop.baseURL()}/`);
    expect(await page.getByTestId("splash").evaluate((element) => getComputedStyle(element).display)).toBe("none");
    expect(await page.locator(".splash-content").evaluate((element) => getComputedStyle(element).animationName)).toBe("none");
    await close();
  });

  it("hides sections below the fold until they scroll into view, never the first screen", async () => {
    const { page, expectClean, close } = await shop.open({ reducedMotion: "no-preference", viewport: { width: 1280, height: 700 } });
    await page.goto(`${shop.baseURL()}/`);
    await waitForHydration(page);
    const closing = page.locator("[data-reveal]").last();
    await closing.and(page.locator('[data-reveal="hidden"]')).waitFor({ state: "attached" });
    expect(await page.locator("h1").evaluate((h1) => h1.closest("[data-reveal]"))).toBeNull();
    await closing.scrollIntoViewIfNeeded();
    await closing.and(page.locator('[data-reveal="shown"]')).waitFor({ state: "attached" });
    expectClean();
    await close();
  });

  it("hides nothing under reduced motion", async () => {
    const { page, close } = await shop.open({ reducedMotion: "reduce" });
    await page.goto(`${shop.baseURL()}/`);
    await waitForHydration(page);
    expect(await page.locator('[data-reveal="hidden"]').count()).toBe(0);
    await close();
  });
});
