import { data, redirect } from "react-router";
import type { Route } from "./+types/person-anonymise";
import { anonymiseBlockers, anonymisePerson, blockerMessage, findPerson } from "@server/customers/index.server";
import { AnonymiseConfirmation } from "~/components/admin/anonymise-confirmation";
import { PERSON_NOT_FOUND, personReferenceFrom, refusedAnonymiseConfirmation } from "~/routes/admin/customers/customers.server";
import { ANONYMISE_CONFIRMATION, guestPath, personPath } from "~/lib/customer-links";
import { dbContext } from "~/server/db-context.server";
import { allowStaff, staffActor } from "~/server/staff.server";

/** Decision 0064, the deletion request of a person who never bought: the admin only, behind this confirmation, like a guest's (decision 0061). */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("datos-personales.gestionar")];

export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(dbContext);
  const found = await findPerson(db, personReferenceFrom(params));
  if (!found) throw data(PERSON_NOT_FOUND, { status: 404 });
  if (found.kind === "account") throw redirect(`/admin/clientes/${found.userId}/anonimizar`);
  if (found.kind === "guest") throw redirect(`${guestPath(found.orderId)}/anonimizar`);
  const person = found.value;
  if (person.anonymized) throw redirect(personPath(person.reference));
  return { person, blocker: blockerMessage(await anonymiseBlockers(db, { userId: null, email: person.email })) };
}

export const meta: Route.MetaFunction = () => [{ title: "Anonimizar persona sin compras · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export async function action({ request, params, context }: Route.ActionArgs) {
  const reference = personReferenceFrom(params);
  const refused = await refusedAnonymiseConfirmation(request);
  if (refused) return refused;
  const result = await anonymisePerson(context.get(dbContext), staffActor(context, request), reference, new Date());
  if (!result.ok && result.reason === "not_found") throw data(PERSON_NOT_FOUND, { status: 404 });
  if (!result.ok && result.reason === "account") return redirect(`/admin/clientes/${result.userId}`);
  if (!result.ok && result.reason === "guest") return redirect(guestPath(result.orderId));
  if (!result.ok) return data({ message: result.message, typed: ANONYMISE_CONFIRMATION }, { status: 400 });
  // A saved cart is deleted with the data: a person named by it has no page left to show.
  return redirect(result.pageRemains ? `${personPath(reference)}?aviso=anonimizado` : "/admin/clientes?aviso=anonimizado");
}

export default function AdminPersonAnonymise({ loaderData, actionData }: Route.ComponentProps) {
  const { person, blocker } = loaderData;
  return (
    <AnonymiseConfirmation
      who={{ kind: "person", name: person.name || "esta persona", email: person.email }}
      backHref={personPath(person.reference)}
      confirmation={ANONYMISE_CONFIRMATION}
      blocker={blocker}
      actionData={actionData}
    />
  );
}
