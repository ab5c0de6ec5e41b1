import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { AccountSidebar } from "~/components/account/account-sidebar";
import { AccountHeader } from "~/components/account/account-header";
import { ComplaintsBookNote } from "~/components/complaints/complaints-book-note";
import { privatePageHeaders } from "~/server/order-receipt.server";
import { requireUserMiddleware, userContext } from "~/server/session.server";

export const middleware: Route.MiddlewareFunction[] = [requireUserMiddleware];

export function loader({ context }: Route.LoaderArgs) {
  const user = context.get(userContext);
  return { fullName: user.fullName, initials: initialsOf(user.firstName, user.lastName), email: user.email, emailVerified: user.emailVerified };
}

export const headers = () => privatePageHeaders;

function initialsOf(firstName: string, lastName: string): string {
  return `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase() || "?";
}

/** Spec §2 Account layout: sidebar with initials and full name from the stored profile. */
export default function AccountLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="min-h-screen bg-slate-50">
      <AccountHeader />
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 sm:px-6 lg:flex-row lg:py-10">
        <AccountSidebar fullName={loaderData.fullName} initials={loaderData.initials} email={loaderData.email} />
        <main id="contenido" className="min-w-0 flex-1">
          {!loaderData.emailVerified && (
            <p role="status" className="mb-4 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
              Confirma tu correo con el enlace que te enviamos a <strong>{loaderData.email}</strong> para ver los pedidos que hiciste como invitado.
            </p>
          )}
          <Outlet />
          <ComplaintsBookNote className="" />
        </main>
      </div>
    </div>
  );
}
