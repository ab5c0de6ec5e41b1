import { data } from "react-router";
import type { Route } from "./+types/team";
import { changeStaffRole, createStaffMember, listStaffMembers, setStaffStatus } from "@server/accounts/index.server";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { CreateStaffForm, PromoteCustomerOffer, StaffMemberCard } from "~/components/admin/team";
import { FormAlert } from "~/components/account/auth-shell";
import { dbContext } from "~/server/db-context.server";
import { fieldErrors } from "@core/account-schemas";
import { staffRoleLabels } from "~/lib/staff-labels";
import { changeRoleSchema, createStaffSchema, memberSchema, promoteSchema } from "~/lib/team-schemas";
import { readFormData } from "~/server/request-body.server";
import { allowStaffPage, staffActor, staffContext } from "~/server/staff.server";

/** Issue 10: only the admin manages the team. */
export const middleware: Route.MiddlewareFunction[] = [allowStaffPage("/admin/equipo")];

export async function loader({ context }: Route.LoaderArgs) {
  return { members: await listStaffMembers(context.get(dbContext)), selfId: context.get(staffContext).id };
}

type CreateValues = { firstName: string; lastName: string; email: string; role: string };

export async function action({ request, context }: Route.ActionArgs) {
  const db = context.get(dbContext);
  const actor = staffActor(context, request);
  const form = Object.fromEntries(await readFormData(request));
  const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
  const values: CreateValues = { firstName: text("firstName"), lastName: text("lastName"), email: text("email"), role: text("role") };

  switch (form.intent) {
    case "create": {
      const parsed = createStaffSchema.safeParse(form);
      if (!parsed.success) return data({ intent: "create", values, fieldErrors: fieldErrors(parsed.error), message: null, promote: null }, { status: 400 });
      const result = await createStaffMember(db, actor, parsed.data);
      if (result.ok)
        return {
          intent: "create",
          values: null,
          fieldErrors: {},
          message: `${parsed.data.firstName} ya puede ingresar con su correo y la contraseña inicial.`,
          promote: null,
        };
      const promote = result.reason === "customer_exists" ? { userId: result.customer.id, fullName: result.customer.fullName, role: parsed.data.role } : null;
      return data({ intent: "create", values, fieldErrors: {}, message: result.message, promote }, { status: 400 });
    }
    case "promote":
    case "role": {
      const parsed = (form.intent === "promote" ? promoteSchema : changeRoleSchema).safeParse(form);
      if (!parsed.success)
        return data(
          { intent: form.intent, values: null, fieldErrors: {}, message: Object.values(fieldErrors(parsed.error))[0] ?? "Solicitud no válida", promote: null },
          { status: 400 },
        );
      const result = await changeStaffRole(db, actor, parsed.data);
      if (!result.ok)
        return data(
          { intent: form.intent, values: null, fieldErrors: {}, message: result.message, promote: null },
          { status: result.reason === "not_found" ? 404 : 400 },
        );
      const role: string = parsed.data.role;
      const label = role === "customer" ? "sin acceso al back office" : `con el rol ${staffRoleLabels[role]}`;
      return {
        intent: form.intent,
        values: null,
        fieldErrors: {},
        message: result.changed ? `Listo: la cuenta quedó ${label}.` : `La cuenta ya estaba ${label}.`,
        promote: null,
      };
    }
    case "deactivate":
    case "reactivate": {
      const parsed = memberSchema.safeParse(form);
      if (!parsed.success)
        return data(
          { intent: form.intent, values: null, fieldErrors: {}, message: "No encontramos a esa persona del equipo.", promote: null },
          { status: 404 },
        );
      const result = await setStaffStatus(db, actor, { userId: parsed.data.userId, status: form.intent === "deactivate" ? "inactive" : "active" });
      if (!result.ok)
        return data(
          { intent: form.intent, values: null, fieldErrors: {}, message: result.message, promote: null },
          { status: result.reason === "not_found" ? 404 : 400 },
        );
      return {
        intent: form.intent,
        values: null,
        fieldErrors: {},
        message: form.intent === "deactivate" ? "Cuenta desactivada: sus sesiones se cerraron." : "Cuenta reactivada.",
        promote: null,
      };
    }
    default:
      return data({ intent: null, values: null, fieldErrors: {}, message: "Acción desconocida", promote: null }, { status: 400 });
  }
}

export const meta: Route.MetaFunction = () => [{ title: "Equipo · Back office" }, { name: "robots", content: "noindex,nofollow" }];

export default function AdminTeam({ loaderData, actionData }: Route.ComponentProps) {
  const failed = actionData && (actionData.promote || Object.keys(actionData.fieldErrors).length > 0 || actionData.values);
  const creating = actionData?.intent === "create";
  return (
    <>
      <AdminPageHeader title="Equipo" />
      {actionData?.message && !creating && (
        <div className="mb-4">
          <FormAlert tone={failed ? "error" : "success"}>{actionData.message}</FormAlert>
        </div>
      )}
      <section aria-labelledby="team-list" className="mb-10">
        <h2 id="team-list" className="mb-3 text-lg font-bold text-slate-900">
          Personas con acceso ({loaderData.members.length})
        </h2>
        <ul className="grid gap-3 lg:grid-cols-2">
          {loaderData.members.map((member) => (
            <StaffMemberCard key={member.id} member={member} isSelf={member.id === loaderData.selfId} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="team-create" className="max-w-2xl">
        <h2 id="team-create" className="mb-3 text-lg font-bold text-slate-900">
          Agregar a alguien al equipo
        </h2>
        {creating && actionData.message && (
          <div className="mb-4">
            <FormAlert tone={failed ? "error" : "success"}>{actionData.message}</FormAlert>
          </div>
        )}
        {creating && actionData.promote && <PromoteCustomerOffer offer={actionData.promote} />}
        <CreateStaffForm values={creating ? actionData.values : null} errors={creating ? actionData.fieldErrors : {}} />
      </section>
    </>
  );
}
