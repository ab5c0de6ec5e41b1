/**
 * Finds text a customer cannot read on the current page: text cut off by its own box or by an
 * ancestor that hides overflow, text pushed past the edge of the screen, a page wider than the
 * screen, and prices or buttons that stay under the floating chat button. Runs inside the page
 * (page.evaluate), so it keeps everything it needs inside the one function.
 */
import type { Page } from "playwright-core";

export interface LayoutProblem {
  kind: "page-overflow" | "clipped" | "cut-by-ancestor" | "off-screen" | "under-chat-button";
  text: string;
  where: string;
}

export async function auditLayout(page: Page): Promise<LayoutProblem[]> {
  // Every font the page uses must be in place, or a later swap could change every measure.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  return page.evaluate(() => {
    const problems: { kind: string; text: string; where: string }[] = [];
    const tolerance = 1;
    const viewportWidth = document.documentElement.clientWidth;
    const describe = (element: Element) => {
      const id = element.id ? `#${element.id}` : "";
      const testId = element.getAttribute("data-testid");
      return `${element.tagName.toLowerCase()}${id}${testId ? `[data-testid=${testId}]` : ""}`;
    };
    const shortText = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 60);
    const hides = (value: string) => value === "hidden" || value === "clip";
    const scrolls = (value: string) => value === "auto" || value === "scroll";
    // Screen-reader-only text (Tailwind's sr-only: a 1 px box with a clip) is hidden on purpose, and
    // decoration hidden from assistive technology (the values marquee) has a readable copy.
    const visuallyHidden = (element: Element) => {
      for (let node: Element | null = element; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.display === "none" || style.visibility === "hidden" || style.opacity === "0") return true;
        if (style.position === "absolute" && node.getBoundingClientRect().width <= 1 && node.getBoundingClientRect().height <= 1) return true;
        if (style.clip !== "auto" && style.clip !== "" && style.position === "absolute") return true;
        if (node.getAttribute("aria-hidden") === "true") return true;
      }
      return false;
    };

    if (document.documentElement.scrollWidth > viewportWidth + tolerance) {
      const widest = [...document.body.querySelectorAll("*")].filter((element) => element.getBoundingClientRect().right > viewportWidth + tolerance);
      problems.push({
        kind: "page-overflow",
        text: `page is ${document.documentElement.scrollWidth}px wide on a ${viewportWidth}px screen`,
        where: widest.slice(-3).map(describe).join(", "),
      });
    }

    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) =>
        node.textContent &&
        node.textContent.trim() !== "" &&
        node.parentElement &&
        !["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "OPTION"].includes(node.parentElement.tagName)
          ? NodeFilter.FILTER_ACCEPT
          : NodeFilter.FILTER_REJECT,
    });
    const seen = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement!;
      if (visuallyHidden(element)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = [...range.getClientRects()].filter((rect) => rect.width > 0 && rect.height > 0);
      if (rects.length === 0) continue;
      const text = shortText(node.textContent!);

      // The text's own box cuts it (overflow hidden or an ellipsis).
      const style = getComputedStyle(element);
      if (!seen.has(element) && (hides(style.overflowX) || style.textOverflow === "ellipsis") && element.scrollWidth > element.clientWidth + tolerance) {
        seen.add(element);
        problems.push({ kind: "clipped", text, where: describe(element) });
        continue;
      }

      // An ancestor that hides its overflow cuts the text, or the text runs off the screen. Text
      // that needs a sideways scroll of its box counts as cut too: on a phone nobody finds it.
      let reported = false;
      for (let ancestor = element.parentElement; ancestor && !reported; ancestor = ancestor.parentElement) {
        const ancestorStyle = getComputedStyle(ancestor);
        const cutsX = hides(ancestorStyle.overflowX) || scrolls(ancestorStyle.overflowX);
        const cutsY = hides(ancestorStyle.overflowY);
        if (!cutsX && !cutsY) continue;
        const box = ancestor.getBoundingClientRect();
        const left = box.left + ancestor.clientLeft;
        const top = box.top + ancestor.clientTop;
        const right = left + ancestor.clientWidth;
        const bottom = top + ancestor.clientHeight;
        for (const rect of rects) {
          const outX = cutsX && (rect.left < left - tolerance || rect.right > right + tolerance);
          const outY = cutsY && (rect.top < top - tolerance || rect.bottom > bottom + tolerance);
          if (outX || outY) {
            problems.push({ kind: "cut-by-ancestor", text, where: `${describe(element)} inside ${describe(ancestor)}` });
            reported = true;
            break;
          }
        }
      }
      if (!reported && rects.some((rect) => rect.left < -tolerance || rect.right > viewportWidth + tolerance)) {
        problems.push({ kind: "off-screen", text, where: describe(element) });
      }
    }

    // Prices and every control, each brought to the middle of the screen (as far as the page
    // scrolls): what is still under the fixed chat button there can never be read or tapped.
    const chat = document.querySelector('[data-testid="chat-button"]');
    if (chat) {
      const targets = [
        ...document.body.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, [data-testid*=price], [data-testid*=total]"),
      ].filter((element) => !chat.contains(element) && !visuallyHidden(element) && element.getBoundingClientRect().width > 0);
      for (const element of document.body.querySelectorAll("p, span, dd, td, strong")) {
        if (/S\/\s?\d/.test(element.textContent ?? "") && element.children.length === 0 && !visuallyHidden(element)) targets.push(element);
      }
      const startY = window.scrollY;
      for (const element of targets) {
        element.scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });
        const rect = element.getBoundingClientRect();
        const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
        if (hit && chat.contains(hit))
          problems.push({
            kind: "under-chat-button",
            text: shortText(element.textContent || element.getAttribute("aria-label") || ""),
            where: describe(element),
          });
      }
      window.scrollTo({ top: startY, behavior: "instant" });
    }
    return problems as { kind: "page-overflow" | "clipped" | "cut-by-ancestor" | "off-screen" | "under-chat-button"; text: string; where: string }[];
  });
}
