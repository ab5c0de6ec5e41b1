import type { ReactNode } from "react";

/**
 * A box that scrolls sideways when its content is wider than the screen. Whether it does depends on
 * the font and the screen, so it is always a named, focusable region: a keyboard user can then scroll
 * it with the arrow keys (axe "scrollable-region-focusable", WCAG 2.1.1).
 */
export function ScrollRegion({ label, className = "", children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={`overflow-x-auto focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${className}`}
    >
      {children}
    </div>
  );
}
