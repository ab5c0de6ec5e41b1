import { isRouteErrorResponse, Link, useLocation } from "react-router";
import { LinkButton } from "~/components/ui/link-button";

/** A white block of an account page with its own heading. */
export function AccountSection({ title, children, className = "" }: { title: string; children: React.ReactNode; className?: string }) {
  return (
    <section
      className={`rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-100 sm:p-6 print:break-inside-avoid print:p-0 print:shadow-none print:ring-0 ${className}`}
    >
      <h2 className="text-lg font-bold text-slate-900">{title}</h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** Label and value pairs of a detail page; stacked on phones, side by side from `sm` up. */
export function FactList({ facts, testId }: { facts: [string, React.ReactNode][]; testId?: string }) {
  return (
    <dl className="space-y-3 text-sm sm:space-y-2" data-testid={testId}>
      {facts.map(([label, value]) => (
        <div key={label} className="grid gap-0.5 sm:grid-cols-[10rem_1fr] sm:gap-3">
          <dt className="text-slate-600">{label}</dt>
          <dd className="text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function EmptyState({ title, children, action }: { title: string; children?: React.ReactNode; action?: { to: string; label: string } }) {
  return (
    <div className="rounded-2xl bg-white px-6 py-12 text-center shadow-sm ring-1 ring-slate-100" data-testid="empty-state">
      <p className="text-lg font-semibold text-slate-900">{title}</p>
      {children && <p className="mt-2 text-slate-600">{children}</p>}
      {action && (
        <LinkButton to={action.to} className="mt-6">
          {action.label}
        </LinkButton>
      )}
    </div>
  );
}

/**
 * An account page's error boundary: the spec's 'no encontrado' message for a 404 (an unknown or
 * someone else's id, never told apart), its load-failure message for anything else, with a way
 * to try again; never a stack trace.
 */
export function AccountPageError({
  error,
  title,
  notFound,
  failure,
  unexpected = failure,
  back,
}: {
  error: unknown;
  /** The page's heading, kept above a load failure. */
  title?: string;
  notFound: string;
  failure: string;
  /** The message for an exception (not an answer the loader chose), where the spec has its own. */
  unexpected?: string;
  back: { to: string; label: string };
}) {
  const location = useLocation();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <div className="space-y-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-100">
      {missing ? (
        <>
          <h1 className="text-2xl font-bold text-slate-900">{notFound}</h1>
          <p className="text-slate-600">Revisa el enlace o búscalo en tu lista.</p>
        </>
      ) : (
        <>
          {title && <h1 className="text-2xl font-bold text-slate-900">{title}</h1>}
          <p role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800">
            {isRouteErrorResponse(error) ? failure : unexpected}
          </p>
        </>
      )}
      <div className="flex flex-wrap gap-4">
        <Link to={back.to} className="font-semibold text-brand-800 underline">
          {back.label}
        </Link>
        {!missing && (
          <Link to={`${location.pathname}${location.search}`} className="font-semibold text-brand-800 underline">
            Reintentar
          </Link>
        )}
      </div>
    </div>
  );
}
