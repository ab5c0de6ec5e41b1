import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/admin.guest-detail";
import { loadGuestPicture } from "@server/customers/index.server";
import { AccountSection, FactList } from "~/components/account/account-page";
import { AdminPageHeader } from "~/components/admin/admin-shell";
import {
  CustomerComplaintsAndConsent,
  CustomerDeliveries,
  CustomerEmails,
  CustomerInvoices,
  CustomerMessagesAndCart,
  CustomerOrders,
  DataRequestActions,
  GuestBadge,
  StaffMessage,
} from "~/components/admin/customer-sections";
import { GUEST_NOT_FOUND, guestOrderIdFrom } from "~/customers.server";
import { guestPath } from "~/lib/customer-links";
import { dbContext } from "~/db-context.server";
import { formatLimaInstant } from "@core/lima-dates";
import { allowRoles, staffContext } from "~/staff.server";

/** Decision 0057: the same roles as an account's picture (decision 0051); export and anonymise are the admin's. */
export const middleware: Route.MiddlewareFunction[] = [allowRoles("operaciones")];

const NOTICES: Record<string, string> = {
  anonimizado: "Comprador anonimizado. Sus comprobantes y hojas de reclamación se conservan como exige la ley.",
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const found = await loadGuestPicture(context.get(dbContext), guestOrderIdFrom(params));
  if (!found) throw data(GUEST_NOT_FOUND, { status: 404 });
  // An account has this e-mail: the request is the account's, whose picture counts these orders too.
  if (found.kind === "account") throw redirect(`/admin/clientes/${found.userId}`);
  const notice = NOTICES[new URL(request.url).searchParams.get("aviso") ?? ""] ?? null;
  return { picture: found.value, notice, isAdmin: context.get(staffContext).role === "admin" };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: `${loaderData ? `${loaderData.picture.guest.firstName} ${loaderData.picture.guest.lastName}` : "Comprador no encontrado"} · Clientes · Back office`,
  },
  { name: "robots", content: "noindex,nofollow" },
];

/** Decision 0057: a guest buyer's whole picture, found by the e-mail on their orders. */
export default function AdminGuestDetail({ loaderData }: Route.ComponentProps) {
  const { picture, notice, isAdmin } = loaderData;
  const { guest } = picture;
  return (
    <div className="space-y-6">
      <p>
        <Link to="/admin/clientes" className="text-sm font-semibold text-brand-800 underline">
          Volver a clientes
        </Link>
      </p>
      <AdminPageHeader title={`${guest.firstName} ${guest.lastName}`}>
        <GuestBadge anonymized={guest.anonymized} />
      </AdminPageHeader>
      {notice && <StaffMessage ok message={notice} />}
      <p className="text-sm text-slate-700">
        Compró sin crear una cuenta: lo identificamos por el correo de sus pedidos. Si luego abre una cuenta con ese correo, sus pedidos pasan a ella.
      </p>

      <div className="grid gap-6 lg:grid-cols-2">
        <AccountSection title="Datos de sus pedidos">
          <FactList
            testId="guest-profile"
            facts={[
              ["E-mail", <span className="break-all">{guest.email}</span>],
              ["Teléfono", guest.phone],
              ["Documento", `${guest.documentType.toUpperCase()} ${guest.documentNumber}`],
              ["Primer pedido", formatLimaInstant(guest.firstOrderAt, { day: "numeric", month: "long", year: "numeric" })],
              ["Bidones en su poder", `${picture.bidones.balance} (prestados ${picture.bidones.lent}, devueltos ${picture.bidones.returned})`],
            ]}
          />
        </AccountSection>
        <CustomerOrders picture={picture} />
        <CustomerDeliveries picture={picture} />
        <CustomerInvoices picture={picture} />
        <CustomerEmails picture={picture} />
        <CustomerComplaintsAndConsent picture={picture} />
        <CustomerMessagesAndCart picture={picture} />
      </div>

      {isAdmin && !guest.anonymized && <DataRequestActions basePath={guestPath(guest.reference)} who="comprador" />}
    </div>
  );
}
