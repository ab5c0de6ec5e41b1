import { data, redirect } from "react-router";
import type { Route } from "./+types/guest-anonymise";
import { anonymiseBlockers, anonymiseGuest, blockerMessage, findGuest } from "@server/customers/index.server";
import { AnonymiseConfirmation } from "~/components/admin/anonymise-confirmation";
import { GUEST_NOT_FOUND, guestOrderIdFrom, refusedAnonymiseConfirmation } from "~/routes/admin/customers/customers.server";
import { ANONYMISE_CONFIRMATION, guestPath } from "~/lib/customer-links";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffActor } from "~/server/staff.server";

/** Decision 0061, a guest's Ley 29733 deletion request: the admin only, behind this confirmation, like an account's (decision 0051). */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("datos-personales.gestionar")];

export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const found = await findGuest(db, guestOrderIdFrom(params));
  if (!found) throw data(GUEST_NOT_FOUND, { status: 404 });
  if (found.kind === "account") throw redirect(`/admin/clientes/${found.userId}/anonimizar`);
  const guest = found.value;
  if (guest.anonymized) throw redirect(guestPath(guest.reference));
  return { guest, blocker: blockerMessage(await anonymiseBlockers(db, { userId: null, email: guest.email })) };
}

export const meta: Route.MetaFunction = () => [{ title: "Anonimizar comprador invitado · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export async function action({ request, params, context }: Route.ActionArgs) {
  const orderId = guestOrderIdFrom(params);
  const refused = await refusedAnonymiseConfirmation(request);
  if (refused) return refused;
  const result = await anonymiseGuest(context.get(dbContext), staffActor(context, request), orderId, new Date());
  if (!result.ok && result.reason === "not_found") throw data(GUEST_NOT_FOUND, { status: 404 });
  if (!result.ok && result.reason === "account") return redirect(`/admin/clientes/${result.userId}`);
  if (!result.ok) return data({ message: result.message, typed: ANONYMISE_CONFIRMATION }, { status: 400 });
  return redirect(`${guestPath(orderId)}?aviso=anonimizado`);
}

export default function AdminGuestAnonymise({ loaderData, actionData }: Route.ComponentProps) {
  const { guest, blocker } = loaderData;
  return (
    <AnonymiseConfirmation
      who={{ kind: "guest", name: `${guest.firstName} ${guest.lastName}`, email: guest.email }}
      backHref={guestPath(guest.reference)}
      confirmation={ANONYMISE_CONFIRMATION}
      blocker={blocker}
      actionData={actionData}
    />
  );
}
