import { may } from "@core/staff-permissions";
import { data, redirect } from "react-router";
import type { Route } from "./+types/guest-detail";
import { loadGuestPicture } from "@server/customers/index.server";
import { AccountSection, FactList } from "~/components/account/account-page";
import { anonymisedNotice, CustomerPage, DataRequestActions, GuestBadge } from "~/components/admin/customer-sections";
import { CustomerGarantia, settleAnswerOf } from "~/components/admin/customer-garantia";
import { GUEST_NOT_FOUND, guestOrderIdFrom, recordBidonReturnFromForm, settleGarantiaFromForm } from "~/routes/admin/customers/customers.server";
import { readFormData } from "~/server/request-body.server";
import { guestPath } from "~/lib/customer-links";
import { dbContext } from "~/server/db-context.server";
import { formatLimaInstant } from "@core/lima-dates";
import { allowStaff, staffActor, staffContext } from "~/server/staff.server";

/** Decision 0061: the same roles as an account's picture (decision 0051); export and anonymise are the admin's. */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("clientes.gestionar")];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const found = await loadGuestPicture(context.get(dbContext), guestOrderIdFrom(params));
  if (!found) throw data(GUEST_NOT_FOUND, { status: 404 });
  // An account has this e-mail: the request is the account's, whose picture counts these orders too.
  if (found.kind === "account") throw redirect(`/admin/clientes/${found.userId}`);
  return {
    picture: found.value,
    notice: anonymisedNotice(request, "Comprador"),
    mayHandleDataRequests: may(context.get(staffContext).role, "datos-personales.gestionar"),
  };
}

/**
 * Decision 0075: bidones a guest brought back outside a delivery (their garantía goes back as a
 * refund), and a garantía return staff gave back by hand.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const found = await loadGuestPicture(db, guestOrderIdFrom(params));
  if (!found) throw data(GUEST_NOT_FOUND, { status: 404 });
  // The e-mail has an account: its page records returns (its ledger holds these orders' bidones too).
  if (found.kind === "account") throw redirect(`/admin/clientes/${found.userId}`);
  if (found.value.guest.anonymized) throw data(GUEST_NOT_FOUND, { status: 404 });
  const form = await readFormData(request);
  const guest = { userId: null, email: found.value.guest.email };
  // Decision 0075: a garantía return staff gave back by hand (transfer, cash at the office).
  if (form.get("intent") === "garantia_settle") return settleGarantiaFromForm(db, staffActor(context, request), guest, form);
  if (form.get("intent") !== "bidon_return") return data({ intent: "bidon_return" as const, ok: false, message: "Acción no reconocida." }, { status: 400 });
  return recordBidonReturnFromForm(db, staffActor(context, request), guest, form);
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: `${loaderData ? `${loaderData.picture.guest.firstName} ${loaderData.picture.guest.lastName}` : "Comprador no encontrado"} · Clientes · Back office`,
  },
  { name: "robots", content: "noindex,nofollow" },
];

/** Decision 0061: a guest buyer's whole picture, found by the e-mail on their orders. */
export default function AdminGuestDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { picture, notice, mayHandleDataRequests } = loaderData;
  const { guest } = picture;
  return (
    <CustomerPage
      title={`${guest.firstName} ${guest.lastName}`}
      badge={<GuestBadge anonymized={guest.anonymized} />}
      notice={notice}
      picture={picture}
      actions={
        <p className="text-sm text-slate-700">
          Compró sin crear una cuenta: lo identificamos por el correo de sus pedidos. Si luego abre una cuenta con ese correo, sus pedidos pasan a ella.
        </p>
      }
      profile={
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
      }
      garantia={
        <CustomerGarantia
          garantia={picture.garantia}
          bidones={picture.bidones}
          canRecordReturn={!guest.anonymized}
          canSettle={!guest.anonymized}
          result={actionData && !settleAnswerOf(actionData) ? actionData : null}
          settleResult={settleAnswerOf(actionData)}
        />
      }
      dataRequests={mayHandleDataRequests && !guest.anonymized && <DataRequestActions basePath={guestPath(guest.reference)} who="comprador" />}
    />
  );
}
