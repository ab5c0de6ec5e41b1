import { useId } from "react";

/**
 * The round logo drawn inline (same drawing as public/logo.svg): it paints with the first frame,
 * with no extra request, which keeps it from being the page's slowest "largest paint".
 */
export function LogoMark({ className = "h-9 w-9" }: { className?: string }) {
  // Two logos share a page (header and splash): each needs its own gradient id, made URL-safe.
  const gradient = `logo-${useId().replace(/[^a-zA-Z0-9_-]/g, "")}`;
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#fff" />
          <stop offset="1" stopColor="#67e8f9" />
        </linearGradient>
      </defs>
      <circle cx="32" cy="32" r="30" fill="#0e7490" />
      <circle cx="32" cy="32" r="26" fill="none" stroke="#06b6d4" strokeWidth="2" />
      <path d="M30 11c-9 12-14 19-14 27a14 14 0 0 0 28 0c0-8-5-15-14-27z" fill={`url(#${gradient})`} />
      <path d="M23 40q1 6 6 8" stroke="#fff" strokeWidth="2.5" fill="none" strokeLinecap="round" />
      <path d="M36 52q1-17 18-19q0 17-18 19z" fill="#65a30d" stroke="#0e7490" strokeWidth="1.5" />
      <path d="M39 49q5-8 12-12" stroke="#d9f99d" strokeWidth="1.5" fill="none" strokeLinecap="round" />
    </svg>
  );
}
