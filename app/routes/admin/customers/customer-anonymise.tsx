import { data, redirect } from "react-router";
import type { Route } from "./+types/customer-anonymise";
import { anonymiseBlockers, anonymiseCustomer, blockerMessage, findCustomerProfile } from "@server/customers/index.server";
import { runJobSoon } from "@server/jobs/index.server";
import { AnonymiseConfirmation } from "~/components/admin/anonymise-confirmation";
import { CUSTOMER_NOT_FOUND, customerIdFrom, refusedAnonymiseConfirmation } from "~/routes/admin/customers/customers.server";
import { ANONYMISE_CONFIRMATION } from "~/lib/customer-links";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffActor } from "~/server/staff.server";

/** Issue 11, Ley 29733 deletion request: irreversible, so the admin only and behind this confirmation page (decision 0051). */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("datos-personales.gestionar")];

export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const profile = await findCustomerProfile(db, customerIdFrom(params));
  if (!profile) throw data(CUSTOMER_NOT_FOUND, { status: 404 });
  if (profile.status === "anonymized") throw redirect(`/admin/clientes/${profile.id}`);
  return { profile, blocker: blockerMessage(await anonymiseBlockers(db, { userId: profile.id, email: profile.email })) };
}

export const meta: Route.MetaFunction = () => [{ title: "Anonimizar cliente · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export async function action({ request, params, context }: Route.ActionArgs) {
  const userId = customerIdFrom(params);
  const refused = await refusedAnonymiseConfirmation(request);
  if (refused) return refused;
  const result = await anonymiseCustomer(context.get(dbContext), staffActor(context, request), userId, new Date());
  if (!result.ok && result.reason === "not_found") throw data(CUSTOMER_NOT_FOUND, { status: 404 });
  if (!result.ok) return data({ message: result.message, typed: ANONYMISE_CONFIRMATION }, { status: 400 });
  // Saved cards are deleted at the provider now, outside the committed transaction (decision 0061).
  if (!result.alreadyAnonymized) runJobSoon("providerErasures");
  return redirect(`/admin/clientes/${userId}?aviso=anonimizado`);
}

export default function AdminCustomerAnonymise({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, blocker } = loaderData;
  return (
    <AnonymiseConfirmation
      who={{ kind: "account", name: `${profile.firstName} ${profile.lastName}`, email: profile.email }}
      backHref={`/admin/clientes/${profile.id}`}
      confirmation={ANONYMISE_CONFIRMATION}
      blocker={blocker}
      actionData={actionData}
    />
  );
}
