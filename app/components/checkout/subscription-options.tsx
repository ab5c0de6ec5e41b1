import { Field, inputClass } from "~/components/ui/form-field";
import { formatSoles } from "@core/money";
import { orderSummary, type SubscriptionFrequency } from "@core/pricing";
import { cadenceTerms, deliveryCadenceLabels, deliveryCadences, monthlySubtotalCents, type DeliveryCadence } from "@core/delivery-cadence";
import { deliveriesPerPeriod } from "@core/subscription-dates";

/** A subscription's extra choices: how often it is delivered, the account it needs and the organisation it supports. */
export function SubscriptionOptions({
  signedIn,
  frequency,
  deliverySubtotalCents,
  cadence,
  onCadenceChange,
  cadenceError,
  organizations,
  organizationId,
  onOrganizationChange,
  error,
  liveSubscriptions,
  askAnother,
  anotherSubscription,
  onAnotherSubscriptionChange,
  anotherSubscriptionError,
}: {
  signedIn: boolean;
  frequency: SubscriptionFrequency;
  /** The cart: what one delivery brings. */
  deliverySubtotalCents: number;
  cadence: DeliveryCadence;
  onCadenceChange: (cadence: DeliveryCadence) => void;
  cadenceError: string | undefined;
  liveSubscriptions: { id: string; subscriptionNumber: string }[];
  /** Issue 41: the customer has a live subscription (or the server said so): a second one needs their yes. */
  askAnother: boolean;
  anotherSubscription: boolean;
  onAnotherSubscriptionChange: (another: boolean) => void;
  anotherSubscriptionError: string | undefined;
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
      <CadenceChoice frequency={frequency} deliverySubtotalCents={deliverySubtotalCents} cadence={cadence} onChange={onCadenceChange} error={cadenceError} />
      {!signedIn && <AccountRequiredNotice />}
      {askAnother && (
        <AnotherSubscription live={liveSubscriptions} checked={anotherSubscription} onChange={onAnotherSubscriptionChange} error={anotherSubscriptionError} />
      )}
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

/**
 * Issue 41 (decision 0097): how often the plan's deliveries come. Each option says what the plan
 * charges for it; the cart is one delivery. The server prices it again from its own catalogue.
 */
function CadenceChoice({
  frequency,
  deliverySubtotalCents,
  cadence,
  onChange,
  error,
}: {
  frequency: SubscriptionFrequency;
  deliverySubtotalCents: number;
  cadence: DeliveryCadence;
  onChange: (cadence: DeliveryCadence) => void;
  error: string | undefined;
}) {
  const per = frequency === "anual" ? "al año" : "al mes";
  return (
    <fieldset aria-describedby="cadence-terms" data-testid="cadence-choice">
      <legend className="font-semibold text-brand-900">¿Cada cuánto quieres tus entregas?</legend>
      <div className="mt-2 space-y-2">
        {deliveryCadences.map((option) => {
          const count = deliveriesPerPeriod(frequency, option);
          const price = orderSummary(monthlySubtotalCents(deliverySubtotalCents, option), "subscription", frequency).totalCents;
          return (
            <label
              key={option}
              className="flex cursor-pointer items-start gap-3 rounded-2xl border border-brand-200 bg-white p-3 has-[:checked]:border-brand-700 has-[:checked]:ring-1 has-[:checked]:ring-brand-700"
            >
              <input
                type="radio"
                name="deliveryCadence"
                value={option}
                checked={cadence === option}
                onChange={() => onChange(option)}
                className="mt-1 accent-brand-700"
              />
              <span className="min-w-0">
                <span className="block font-semibold text-brand-900">{deliveryCadenceLabels[option]}</span>
                <span className="block text-slate-700">
                  {count} {count === 1 ? "entrega" : "entregas"} {per} · {formatSoles(price)} {per}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      <p id="cadence-terms" className="mt-2 text-slate-700" data-testid="cadence-terms">
        {cadenceTerms(cadence)}
      </p>
      {error && (
        <p role="alert" className="mt-1 text-red-800">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/**
 * Issue 41: "Repetir", the product page or the cart can all lead a subscriber to subscribe again;
 * before a second subscription is created they say so here (the server refuses it otherwise).
 */
function AnotherSubscription({
  live,
  checked,
  onChange,
  error,
}: {
  live: { id: string; subscriptionNumber: string }[];
  checked: boolean;
  onChange: (checked: boolean) => void;
  error: string | undefined;
}) {
  const first = live[0];
  return (
    <div className="space-y-2 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="another-subscription">
      <p className="font-semibold">
        {first
          ? `Ya tienes la suscripción ${live.map((subscription) => subscription.subscriptionNumber).join(", ")} · ¿Quieres otra?`
          : "Ya tienes una suscripción · ¿Quieres otra?"}
      </p>
      <p>
        Esta compra crea una suscripción nueva, con su propio cobro y sus propias entregas. Para cambiar productos, fecha o plan de la que ya tienes,{" "}
        <a href={first ? `/dashboard/suscripciones/${first.id}` : "/dashboard/suscripcion"} className="font-semibold text-brand-800 underline">
          ve a tu suscripción
        </a>
        .
      </p>
      <label className="flex items-start gap-2 font-semibold">
        <input
          type="checkbox"
          name="otraSuscripcion"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-invalid={error !== undefined}
          aria-describedby={error ? "another-subscription-error" : undefined}
          className="mt-1 accent-brand-700"
        />
        <span>Sí, quiero otra suscripción</span>
      </label>
      {error && (
        <p id="another-subscription-error" role="alert" className="text-red-800">
          {error}
        </p>
      )}
    </div>
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
