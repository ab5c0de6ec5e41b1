import type { ReactNode } from "react";
import { useScrollReveal, type ScrollRevealOptions } from "~/lib/use-scroll-reveal";

export function Reveal({ children, className, ...options }: ScrollRevealOptions & { children: ReactNode; className?: string }) {
  const ref = useScrollReveal<HTMLDivElement>(options);
  return (
    <div ref={ref} data-reveal="shown" className={className}>
      {children}
    </div>
  );
}
