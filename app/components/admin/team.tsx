import { Form } from "react-router";
import type { StaffMemberRow } from "@server/accounts/index.server";
import { Field, inputClass } from "~/components/ui/form-field";
import { PASSWORD_RULES } from "@core/account-schemas";
import { staffRoleLabels } from "~/lib/staff-labels";
import { STAFF_ROLES } from "@core/staff-roles";

const smallButton = "rounded-lg px-3 py-2 text-sm font-semibold ring-1";

/** One person of the team: who they are, their role and status, and the admin's controls. */
export function StaffMemberCard({ member, isSelf }: { member: StaffMemberRow; isSelf: boolean }) {
  const active = member.status === "active";
  const name = `${member.firstName} ${member.lastName}`.trim();
  return (
    <li className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100" data-testid="staff-member">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold text-slate-900">
            {name} {isSelf && <span className="text-sm font-normal text-slate-600">(tú)</span>}
          </p>
          <p className="break-all text-sm text-slate-700">{member.email}</p>
        </div>
        <div className="flex flex-wrap gap-1 text-xs font-semibold">
          <span className="rounded-full bg-brand-50 px-2 py-0.5 text-brand-900">{staffRoleLabels[member.role]}</span>
          <span className={`rounded-full px-2 py-0.5 ${active ? "bg-emerald-50 text-emerald-800" : "bg-slate-200 text-slate-800"}`}>
            {active ? "Activo" : "Desactivado"}
          </span>
        </div>
      </div>
      {!isSelf && (
        <div className="mt-3 flex flex-wrap items-end gap-3">
          {active && (
            <Form method="post" className="flex flex-wrap items-end gap-2">
              <input type="hidden" name="intent" value="role" />
              <input type="hidden" name="userId" value={member.id} />
              <label className="text-sm">
                <span className="mb-1 block font-semibold">Rol de {member.firstName}</span>
                <select name="role" defaultValue={member.role} className="rounded-lg border border-slate-300 px-2 py-2">
                  {STAFF_ROLES.map((role) => (
                    <option key={role} value={role}>
                      {staffRoleLabels[role]}
                    </option>
                  ))}
                  <option value="customer">Sin acceso (solo cliente)</option>
                </select>
              </label>
              <button type="submit" className={`${smallButton} text-brand-900 ring-brand-200 hover:bg-brand-50`}>
                Cambiar rol
              </button>
            </Form>
          )}
          <Form method="post">
            <input type="hidden" name="intent" value={active ? "deactivate" : "reactivate"} />
            <input type="hidden" name="userId" value={member.id} />
            <button
              type="submit"
              className={`${smallButton} ${active ? "text-red-800 ring-red-200 hover:bg-red-50" : "text-emerald-800 ring-emerald-200 hover:bg-emerald-50"}`}
            >
              {active ? `Desactivar a ${member.firstName}` : `Reactivar a ${member.firstName}`}
            </button>
          </Form>
        </div>
      )}
    </li>
  );
}

/** The address typed belongs to a customer: the admin may give that same account the role. */
export function PromoteCustomerOffer({ offer }: { offer: { userId: string; fullName: string; role: string } }) {
  return (
    <Form method="post" className="mb-4 rounded-2xl bg-brand-50 p-4">
      <input type="hidden" name="intent" value="promote" />
      <input type="hidden" name="userId" value={offer.userId} />
      <input type="hidden" name="role" value={offer.role} />
      <button type="submit" className={`${smallButton} bg-white text-brand-900 ring-brand-300 hover:bg-brand-100`}>
        Dar el rol {staffRoleLabels[offer.role]} a {offer.fullName}
      </button>
    </Form>
  );
}

export function CreateStaffForm({
  values,
  errors,
}: {
  values: { firstName: string; lastName: string; email: string; role: string } | null;
  errors: Record<string, string | undefined>;
}) {
  return (
    <Form method="post" className="grid gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100 sm:grid-cols-2 sm:p-6" noValidate>
      <input type="hidden" name="intent" value="create" />
      <Field label="Nombre" error={errors.firstName}>
        {(props) => <input {...props} name="firstName" autoComplete="off" defaultValue={values?.firstName ?? ""} className={inputClass} />}
      </Field>
      <Field label="Apellido" error={errors.lastName}>
        {(props) => <input {...props} name="lastName" autoComplete="off" defaultValue={values?.lastName ?? ""} className={inputClass} />}
      </Field>
      <Field label="Correo electrónico" error={errors.email}>
        {(props) => <input {...props} name="email" type="email" autoComplete="off" defaultValue={values?.email ?? ""} className={inputClass} />}
      </Field>
      <Field label="Rol" error={errors.role}>
        {(props) => (
          <select {...props} name="role" defaultValue={values?.role || "operaciones"} className={inputClass}>
            {STAFF_ROLES.map((role) => (
              <option key={role} value={role}>
                {staffRoleLabels[role]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="sm:col-span-2">
        <Field label="Contraseña inicial" error={errors.password}>
          {(props) => <input {...props} name="password" type="text" autoComplete="new-password" spellCheck={false} className={inputClass} />}
        </Field>
        <p className="mt-1 text-sm text-slate-600">
          {PASSWORD_RULES.map((rule) => rule.hint).join(" · ")}. Compártela en persona; podrá cambiarla en su perfil.
        </p>
      </div>
      <div className="sm:col-span-2">
        <button type="submit" className="rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800">
          Crear cuenta del equipo
        </button>
      </div>
    </Form>
  );
}
