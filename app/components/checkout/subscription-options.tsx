import { Field, inputClass } from "~/components/ui/form-field";

/** A subscription's extra choices: the account it needs and the organisation it supports. */
export function SubscriptionOptions({
  signedIn,
  organizations,
  organizationId,
  onOrganizationChange,
  error,
}: {
  signedIn: boolean;
  organizations: { id: number; title: string }[];
  organizationId: string;
  onOrganizationChange: (organizationId: string) => void;
  error: string | undefined;
}) {
  return (
    <section aria-labelledby="subscription-account" className="space-y-3 rounded-3xl border border-brand-200 bg-brand-50 p-5 text-sm">
      <h2 id="subscription-account" className="text-base font-bold text-brand-900">
        Tu suscripción
      </h2>
      {!signedIn && <AccountRequiredNotice />}
      <Field label="Organización que apoyarás (opcional)" error={error}>
        {(props) => (
          <select {...props} className={inputClass} value={organizationId} onChange={(e) => onOrganizationChange(e.target.value)}>
            <option value="">La elijo después</option>
            {organizations.map((organization) => (
              <option key={organization.id} value={organization.id}>
                {organization.title}
              </option>
            ))}
          </select>
        )}
      </Field>
    </section>
  );
}

const ACCOUNT_RETURN = encodeURIComponent("/checkout");

/** Spec §6: subscriptions live in the account area, so subscribing needs an account. */
function AccountRequiredNotice() {
  return (
    <div>
      <p className="text-brand-900">Para suscribirte necesitas una cuenta: así podrás pausar, cambiar o cancelar tu suscripción cuando quieras.</p>
      <AccountLinks />
    </div>
  );
}

/** Sign in or sign up, coming back to the checkout afterwards. */
export function AccountLinks() {
  return (
    <p className="mt-2 flex flex-wrap gap-3">
      <a href={`/login?redirectTo=${ACCOUNT_RETURN}`} className="font-semibold text-brand-800 underline">
        Iniciar sesión
      </a>
      <a href={`/register?redirectTo=${ACCOUNT_RETURN}`} className="font-semibold text-brand-800 underline">
        Crear cuenta
      </a>
    </p>
  );
}
