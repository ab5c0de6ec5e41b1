import { useEffect, useState } from "react";
import { ChevronIcon } from "~/components/ui/icons";
import { CAROUSEL_INTERVAL_MS, wrapIndex } from "~/lib/carousel";

export interface Slide {
  id: string;
  title: string;
  description: string;
  image: string | null;
}

const PLACEHOLDER = "/images/history/comunidad.svg";

/**
 * Spec §2/§4 history carousel: previous/next thumbnails, dots, the current slide's title and
 * description; wraps, advances every 3.5 s when there is more than one slide and pauses while the
 * pointer is over it. It also pauses while focused inside and under reduced motion, so nobody has
 * to chase moving content (WCAG 2.2.2).
 */
export function HistoryCarousel({ slides }: { slides: Slide[] }) {
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const count = slides.length;
  const current = slides[wrapIndex(index, count)];
  const previous = slides[wrapIndex(index - 1, count)];
  const next = slides[wrapIndex(index + 1, count)];

  useEffect(() => {
    if (count <= 1 || hovered || focused) return;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const timer = window.setInterval(() => setIndex((value) => wrapIndex(value + 1, count)), CAROUSEL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [count, hovered, focused]);

  if (!current || !previous || !next) return null;

  return (
    <div
      className="flex flex-col items-center gap-6"
      data-testid="history-carousel"
      role="region"
      aria-roledescription="carrusel"
      aria-label="Nuestra historia"
      onPointerEnter={() => setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="flex w-full items-center justify-center gap-3 sm:gap-6">
        {count > 1 && (
          <button
            type="button"
            onClick={() => setIndex((value) => wrapIndex(value - 1, count))}
            className="group flex shrink-0 flex-col items-center gap-1"
            aria-label={`Anterior: ${previous.title}`}
          >
            <img
              src={previous.image ?? PLACEHOLDER}
              alt=""
              width={160}
              height={90}
              loading="lazy"
              className="hidden w-28 rounded-xl opacity-60 transition group-hover:opacity-100 sm:block lg:w-40"
            />
            <ChevronIcon direction="left" className="h-8 w-8 rounded-full bg-brand-700 p-1 text-white" />
          </button>
        )}
        <figure className="w-full max-w-2xl" aria-live="polite" data-testid="history-current">
          <img src={current.image ?? PLACEHOLDER} alt="" width={640} height={360} className="aspect-video w-full rounded-3xl bg-sky-50 object-cover shadow" />
          <figcaption className="mt-4 text-center">
            <h3 className="text-xl font-bold text-brand-900">{current.title}</h3>
            <p className="mt-1 text-slate-600">{current.description}</p>
          </figcaption>
        </figure>
        {count > 1 && (
          <button
            type="button"
            onClick={() => setIndex((value) => wrapIndex(value + 1, count))}
            className="group flex shrink-0 flex-col items-center gap-1"
            aria-label={`Siguiente: ${next.title}`}
          >
            <img
              src={next.image ?? PLACEHOLDER}
              alt=""
              width={160}
              height={90}
              loading="lazy"
              className="hidden w-28 rounded-xl opacity-60 transition group-hover:opacity-100 sm:block lg:w-40"
            />
            <ChevronIcon direction="right" className="h-8 w-8 rounded-full bg-brand-700 p-1 text-white" />
          </button>
        )}
      </div>
      {count > 1 && (
        <div className="flex gap-1" role="group" aria-label="Diapositivas">
          {slides.map((slide, slideIndex) => (
            <button
              key={slide.id}
              type="button"
              onClick={() => setIndex(slideIndex)}
              aria-label={`Ir a: ${slide.title}`}
              aria-current={slideIndex === wrapIndex(index, count) ? "true" : undefined}
              className="flex h-11 w-8 items-center justify-center"
            >
              <span className={`block h-3 rounded-full transition-all ${slideIndex === wrapIndex(index, count) ? "w-6 bg-brand-700" : "w-3 bg-slate-300"}`} />
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
