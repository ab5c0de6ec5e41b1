import { may } from "@core/staff-permissions";
import { data, redirect } from "react-router";
import type { Route } from "./+types/person-detail";
import { loadPersonPicture } from "@server/customers/index.server";
import { AccountSection, FactList } from "~/components/account/account-page";
import { anonymisedNotice, CustomerPage, DataRequestActions, PersonBadge } from "~/components/admin/customer-sections";
import { PERSON_NOT_FOUND, personReferenceFrom } from "~/routes/admin/customers/customers.server";
import { guestPath, personPath } from "~/lib/customer-links";
import { dbContext } from "~/server/db-context.server";
import { formatLimaInstant } from "@core/lima-dates";
import { allowStaff, staffContext } from "~/server/staff.server";

/** Decision 0064: the same roles as a guest's picture (decision 0061); export and anonymise are the admin's. */
export const middleware: Route.MiddlewareFunction[] = [allowStaff("clientes.gestionar")];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const found = await loadPersonPicture(context.get(dbContext), personReferenceFrom(params));
  if (!found) throw data(PERSON_NOT_FOUND, { status: 404 });
  // An account or a guest order has this e-mail: their picture covers everything held under it.
  if (found.kind === "account") throw redirect(`/admin/clientes/${found.userId}`);
  if (found.kind === "guest") throw redirect(guestPath(found.orderId));
  return {
    picture: found.value,
    notice: anonymisedNotice(request, "Persona"),
    mayHandleDataRequests: may(context.get(staffContext).role, "datos-personales.gestionar"),
  };
}

const titleOf = (person: { name: string; email: string; anonymized: boolean }) => (person.anonymized ? "Persona anonimizada" : person.name || person.email);

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData ? titleOf(loaderData.picture.person) : "Persona no encontrada"} · Clientes · Back office` },
  { name: "robots", content: "noindex,nofollow" },
];

/** Decision 0064: a person who never bought, with everything the shop holds under their e-mail. */
export default function AdminPersonDetail({ loaderData }: Route.ComponentProps) {
  const { picture, notice, mayHandleDataRequests } = loaderData;
  const { person } = picture;
  return (
    <CustomerPage
      title={titleOf(person)}
      badge={<PersonBadge anonymized={person.anonymized} />}
      notice={notice}
      picture={picture}
      actions={
        <p className="text-sm text-slate-700">
          {person.anonymized
            ? "Sus datos fueron anonimizados a su pedido; queda lo que la ley obliga a conservar."
            : "Nunca compró ni tiene cuenta: la conocemos por el correo de una hoja de reclamación, un mensaje, un consentimiento o un carrito guardado."}
        </p>
      }
      profile={
        <AccountSection title="Datos que nos dio">
          <FactList
            testId="person-profile"
            facts={[
              ["E-mail", <span className="break-all">{person.email}</span>],
              ["Nombre", person.name || "No lo indicó"],
              ["Teléfono", person.phone ?? "No lo indicó"],
              ["Documento", person.document ?? "No lo indicó"],
              ["Primer contacto", person.firstSeenAt ? formatLimaInstant(person.firstSeenAt, { day: "numeric", month: "long", year: "numeric" }) : "—"],
            ]}
          />
        </AccountSection>
      }
      dataRequests={mayHandleDataRequests && !person.anonymized && <DataRequestActions basePath={personPath(person.reference)} who="persona" />}
    />
  );
}
