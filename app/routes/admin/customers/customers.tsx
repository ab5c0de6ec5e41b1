import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/customers";
import { CUSTOMERS_PAGE_SIZE, searchCustomers, type CustomerRow } from "@server/customers/index.server";
import { Pager } from "~/components/account/pager";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { anonymisedNotice, CustomerStatusBadge, GuestBadge, PersonBadge, StaffMessage } from "~/components/admin/customer-sections";
import { guestPath, personPath } from "~/lib/customer-links";
import { dbContext } from "~/server/db-context.server";
import { isPlainLine } from "@core/input-schemas";
import { pageWindow, parsePageParam } from "~/lib/pagination";
import { allowStaffPage } from "~/server/staff.server";

/**
 * Issue 11: admin and operaciones look customers up (decision 0051), guest buyers without an
 * account (decision 0061) and people who never bought (decision 0064).
 */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/clientes")];

const LIST_PATH = "/admin/clientes";
const QUERY_MAX = 120;

function listHref(q: string, page: number): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${LIST_PATH}?${query}` : LIST_PATH;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const typed = (params.get("q") ?? "").slice(0, QUERY_MAX);
  // A control character (a NUL byte) cannot be part of any name, e-mail or phone: nothing matches.
  const q = isPlainLine(typed) ? typed.trim() : "";
  const page = parsePageParam(params.get("page"));
  const { rows, total } = await searchCustomers(context.get(dbContext), q, page);
  const { lastPage } = pageWindow(page, CUSTOMERS_PAGE_SIZE, total);
  if (page > lastPage) throw redirect(listHref(q, lastPage));
  // After anonymising someone known only by a saved cart, nothing of theirs is left to show but this.
  return { rows, total, page, q: typed, pageSize: CUSTOMERS_PAGE_SIZE, notice: anonymisedNotice(request, "Persona") };
}

export const meta: Route.MetaFunction = () => [{ title: "Clientes · Back office" }, { name: "robots", content: "noindex,nofollow" }];

const rowHref = (row: CustomerRow) => (row.kind === "guest" ? guestPath(row.id) : row.kind === "person" ? personPath(row.id) : `${LIST_PATH}/${row.id}`);

function CustomerCard({ row }: { row: CustomerRow }) {
  return (
    <li className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100" data-testid="customer-row">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <Link to={rowHref(row)} className="min-w-0 font-semibold break-words text-brand-800 underline">
          {row.fullName || row.email}
        </Link>
        {row.kind === "guest" ? <GuestBadge /> : row.kind === "person" ? <PersonBadge /> : <CustomerStatusBadge status={row.status} />}
      </div>
      <p className="mt-1 text-sm break-all text-slate-700">{row.email}</p>
      <p className="text-sm text-slate-600">
        {[
          row.documentNumber ? `Doc. ${row.documentNumber}` : null,
          row.phone ? `Tel. ${row.phone}` : null,
          row.emailVerified || row.kind !== "account" ? null : "Correo sin verificar",
        ]
          .filter(Boolean)
          .join(" · ") || "Sin documento ni teléfono registrados"}
      </p>
    </li>
  );
}

export default function AdminCustomers({ loaderData }: Route.ComponentProps) {
  const { rows, total, page, q, pageSize, notice } = loaderData;
  return (
    <>
      <AdminPageHeader title="Clientes" />
      {notice && (
        <div className="mb-6">
          <StaffMessage ok message={notice} />
        </div>
      )}
      <Form
        method="get"
        action={LIST_PATH}
        key={q}
        role="search"
        aria-label="Buscar clientes"
        className="mb-6 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100"
      >
        <label htmlFor="q" className="block text-sm font-semibold text-slate-700">
          Buscar
        </label>
        <div className="mt-1 flex flex-col gap-2 sm:flex-row">
          <input
            id="q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={QUERY_MAX}
            placeholder="E-mail, nombre, DNI/RUC o teléfono"
            className="block w-full min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900"
          />
          <button type="submit" className="rounded-lg bg-brand-700 px-5 py-2 text-sm font-semibold text-white hover:bg-brand-800">
            Buscar
          </button>
        </div>
      </Form>
      {rows.length === 0 ? (
        <p className="rounded-2xl bg-white p-6 text-sm text-slate-700 shadow-sm ring-1 ring-slate-100">
          {q ? "Ningún cliente coincide con la búsqueda." : "Aún no hay clientes registrados."}
        </p>
      ) : (
        <ul className="grid gap-3 lg:grid-cols-2" aria-label="Clientes encontrados">
          {rows.map((row) => (
            <CustomerCard key={row.id} row={row} />
          ))}
        </ul>
      )}
      <Pager page={page} pageSize={pageSize} total={total} hrefFor={(target) => listHref(q.trim(), target)} />
    </>
  );
}
