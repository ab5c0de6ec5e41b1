import { useEffect, useRef, useState } from "react";
import { WhatsAppIcon } from "~/components/ui/icons";
import { whatsappLink } from "~/lib/whatsapp";

/** What a customer reads or taps: the floating button must never sit on one of these (issue 41). */
const TAPPABLE = "a[href], button, input:not([type=hidden]), select, textarea, summary, label, [role=button], h1, [data-testid*=price], [data-testid*=total]";
const DIALOG = "dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]";
/** Room kept around the button, so a control just beside it is not crowded either. */
const MARGIN = 4;

function shown(element: Element): boolean {
  const rect = element.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) return false;
  const style = getComputedStyle(element);
  return style.visibility !== "hidden" && style.display !== "none";
}

/** Whether the button's box (its layout box: kept while it is hidden) overlaps a control, a price or a dialog on screen now. */
function coversSomething(button: HTMLElement): boolean {
  if ([...document.querySelectorAll(DIALOG)].some((dialog) => !button.contains(dialog) && shown(dialog))) return true;
  const box = button.getBoundingClientRect();
  const left = box.left - MARGIN;
  const right = box.right + MARGIN;
  const top = box.top - MARGIN;
  const bottom = box.bottom + MARGIN;
  for (const element of document.querySelectorAll(TAPPABLE)) {
    if (button.contains(element)) continue;
    const rect = element.getBoundingClientRect();
    if (rect.right <= left || rect.left >= right || rect.bottom <= top || rect.top >= bottom) continue;
    if (shown(element)) return true;
  }
  return false;
}

/**
 * Floating WhatsApp-style chat button with the preset greeting (spec §2 Public layout). It steps
 * aside (hidden, not tappable) while a control, a price, a title or a dialog is under it, and comes
 * back when the page scrolls on: a checked box is re-measured on scroll, resize and page changes,
 * once per frame. Without JavaScript it always shows; the layout keeps room below the footer so the
 * page's last row can scroll clear of it.
 */
export function ChatButton({ number, greeting }: { number: string; greeting: string }) {
  const ref = useRef<HTMLAnchorElement>(null);
  const [covering, setCovering] = useState(false);

  useEffect(() => {
    const button = ref.current;
    if (!button) return;
    let frame = 0;
    const check = () => {
      frame = 0;
      setCovering(coversSomething(button));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(check);
    };
    schedule();
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    // Content that appears without a scroll (an error message, an opened dialog, a streamed part).
    const observer = new MutationObserver((records) => {
      if (records.some((record) => !button.contains(record.target))) schedule();
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["open", "class", "hidden", "style"] });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
      observer.disconnect();
    };
  }, []);

  return (
    <a
      ref={ref}
      href={whatsappLink(number, greeting)}
      target="_blank"
      rel="noopener noreferrer"
      aria-label="Escríbenos por WhatsApp"
      data-testid="chat-button"
      data-covering={covering ? "true" : undefined}
      className={`no-print fixed right-5 bottom-5 z-40 flex h-14 w-14 items-center justify-center rounded-full bg-[#1a7f45] text-white shadow-lg transition hover:scale-105 focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-[#1a7f45] ${covering ? "invisible opacity-0" : ""}`}
    >
      <WhatsAppIcon />
    </a>
  );
}
