import { useEffect, useRef } from "react";

export interface ScrollRevealOptions {
  threshold?: number;
  rootMargin?: string;
  triggerOnce?: boolean;
  delay?: number;
}

/** Spec §2 Scroll reveal defaults. */
export const scrollRevealDefaults = { threshold: 0.15, rootMargin: "-50px", triggerOnce: true, delay: 0 } as const;

/**
 * Makes an element appear when it enters the viewport. The server renders it visible and only
 * an element that is below the fold when the browser runs this is hidden, so crawlers, visitors
 * without JavaScript and the first screen never wait for it; reduced motion turns it off.
 */
export function useScrollReveal<T extends HTMLElement>(options: ScrollRevealOptions = {}) {
  const ref = useRef<T>(null);
  const { threshold, rootMargin, triggerOnce, delay } = { ...scrollRevealDefaults, ...options };

  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === "undefined") return;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;

    const margin = Math.abs(Number.parseInt(rootMargin, 10)) || 0;
    const rect = element.getBoundingClientRect();
    const visibleNow = rect.top < window.innerHeight - margin && rect.bottom > margin;
    if (visibleNow && triggerOnce) return;

    element.style.transitionDelay = `${delay}ms`;
    if (!visibleNow) element.dataset.reveal = "hidden";
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (!entry) return;
        if (entry.isIntersecting) {
          element.dataset.reveal = "shown";
          if (triggerOnce) observer.disconnect();
        } else if (!triggerOnce) {
          element.dataset.reveal = "hidden";
        }
      },
      { threshold, rootMargin },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      element.dataset.reveal = "shown";
    };
  }, [threshold, rootMargin, triggerOnce, delay]);

  return ref;
}
