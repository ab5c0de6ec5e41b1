import { Link, type LinkProps } from "react-router";

const variants = {
  primary: "bg-brand-700 text-white hover:bg-brand-800 shadow",
  light: "bg-white text-brand-800 hover:bg-brand-50 shadow",
  outline: "border-2 border-brand-700 text-brand-800 hover:bg-brand-50",
};

/** A link styled as the shop's pill button. */
export function LinkButton({ variant = "primary", className = "", ...props }: LinkProps & { variant?: keyof typeof variants }) {
  return (
    <Link {...props} className={`inline-flex items-center justify-center rounded-full px-7 py-3 font-semibold transition ${variants[variant]} ${className}`} />
  );
}
