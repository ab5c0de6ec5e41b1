const tones = {
  green: "bg-emerald-100 text-emerald-800",
  yellow: "bg-amber-100 text-amber-900",
  red: "bg-red-100 text-red-800",
  blue: "bg-brand-100 text-brand-900",
  gray: "bg-slate-100 text-slate-700",
} as const;

export type BadgeTone = keyof typeof tones;

export function StatusBadge({ label, tone }: { label: string; tone: BadgeTone }) {
  return <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${tones[tone]}`}>{label}</span>;
}
