import { useEffect, useMemo, useState } from "react";
import { useFetcher, useLocation, useNavigate } from "react-router";
import { MinimumOrderModal } from "~/components/shop/minimum-order-modal";
import { OrderSummaryBox } from "~/components/shop/order-summary";
import { cartSubtotalCents } from "~/lib/cart";
import { checkoutSchema, fieldErrors, SHIPPING_INCOMPLETE } from "@core/checkout-schema";
import { deliveryWindows, type DeliveryWindow } from "@core/delivery-schedule";
import { documentTypeLabels, type DocumentType } from "@core/documents";
import { formatLimaDate, isoWeekday, weekdayNames } from "@core/lima-dates";
import { minimumOrderShortfall, type PurchaseType, type SubscriptionFrequency } from "@core/pricing";
import { usePurchaseOptions } from "~/lib/purchase-options";
import { useCart } from "~/lib/use-cart";
import { useHydrated } from "~/lib/use-hydrated";
import { Field, inputClass } from "./field";
import { PromotionalConsentCheckbox } from "~/components/consent/promotional-consent-checkbox";

/** What the checkout action answers when it cannot create the order (success redirects to the payment page). */
export type CheckoutActionData = {
  ok: false;
  fieldErrors?: Record<string, string>;
  message?: string;
  inlineError?: string;
  cartChanged?: boolean;
  minimumShortfallCents?: number;
  /** A subscription needs an account: the form offers sign-in and sign-up, coming back here. */
  accountRequired?: boolean;
  /** The chosen date or window filled since the page loaded (issue 10): the offer is read again. */
  slotTaken?: boolean;
};

/** What the server offers per district (server/deliveries: cut-off, closed days, capacity). */
export type OfferedSlots = Record<number, { date: string; windows: { window: DeliveryWindow; hasRoom: boolean }[] }[]>;

interface District {
  id: number;
  name: string;
  dayNumbers: number[];
}

const emptyForm = {
  nombre: "",
  apellido: "",
  correo: "",
  telefono: "",
  tipo_documento: "dni" as DocumentType,
  dni: "",
  wantsInvoice: false,
  ruc: "",
  razonSocial: "",
  districtName: "",
  direccion: "",
  referencia: "",
  diaHabil: "",
  fecha: "",
  rangoHorario: "" as DeliveryWindow | "",
  promociones: false,
};

/** What a signed-in customer's profile puts in the form (issue 4). */
export type CheckoutPrefill = Pick<typeof emptyForm, "nombre" | "apellido" | "correo" | "telefono" | "tipo_documento" | "dni" | "districtName" | "direccion">;

export function CheckoutForm({
  districts,
  offered,
  customer,
  organizations,
}: {
  districts: District[];
  offered: OfferedSlots;
  customer: CheckoutPrefill | null;
  organizations: { id: number; title: string }[];
}) {
  const hydrated = useHydrated();
  const { items } = useCart();
  const stored = usePurchaseOptions();
  const location = useLocation();
  const navigate = useNavigate();
  const fetcher = useFetcher<CheckoutActionData>();
  const [form, setForm] = useState(() => ({ ...emptyForm, ...customer }));
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);
  const [organizationId, setOrganizationId] = useState("");
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [checkoutKey] = useState(() => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : ""));
  const [minimumDismissed, setMinimumDismissed] = useState(false);

  const navigationOptions = location.state as { purchaseType?: PurchaseType; subscriptionFrequency?: SubscriptionFrequency } | null;
  const purchaseType = navigationOptions?.purchaseType ?? stored.purchaseType;
  const frequency = navigationOptions?.subscriptionFrequency ?? stored.subscriptionFrequency;
  const subtotal = cartSubtotalCents(items);

  const district = districts.find((candidate) => candidate.name.toLocaleLowerCase("es") === form.districtName.trim().toLocaleLowerCase("es"));
  // Spec §5's next two dates of the weekday, among those the server offers (issue 10: after the
  // cut-off, no closed day, room left).
  const offeredDays = useMemo(() => (district ? (offered[district.id] ?? []) : []), [district, offered]);
  const dates = useMemo(
    () =>
      form.diaHabil
        ? offeredDays
            .filter((day) => isoWeekday(day.date) === Number(form.diaHabil))
            .slice(0, 2)
            .map((day) => day.date)
        : [],
    [form.diaHabil, offeredDays],
  );
  const windowsOfDate = offeredDays.find((day) => day.date === form.fecha)?.windows;

  useEffect(() => {
    if (hydrated && items.length === 0) navigate("/tienda", { replace: true });
  }, [hydrated, items.length, navigate]);

  const payload = {
    checkoutKey,
    purchaseType,
    subscriptionFrequency: frequency,
    nombre: form.nombre,
    apellido: form.apellido,
    correo: form.correo,
    telefono: form.telefono,
    tipo_documento: form.tipo_documento,
    dni: form.dni,
    ruc: form.wantsInvoice ? form.ruc : undefined,
    razonSocial: form.wantsInvoice ? form.razonSocial : undefined,
    districtId: district?.id ?? 0,
    direccion: form.direccion,
    referencia: form.referencia,
    diaHabil: form.diaHabil ? Number(form.diaHabil) : 0,
    fecha: form.fecha,
    rangoHorario: form.rangoHorario,
    organizationId: purchaseType === "subscription" ? organizationId : undefined,
    items: items.map(({ productId, variantId, quantity }) => ({ productId, variantId, quantity })),
    clientSubtotalCents: subtotal,
    promociones: form.promociones,
  };
  const parsed = checkoutSchema.safeParse(payload);
  const clientErrors = parsed.success ? {} : fieldErrors(parsed.error);
  const serverErrors = fetcher.data?.fieldErrors ?? {};
  const errorFor = (field: string) => (touched[field] || touched.submit ? (clientErrors[field] ?? serverErrors[field]) : serverErrors[field]);
  const shippingFields = ["districtId", "direccion", "diaHabil", "fecha", "rangoHorario"];
  const shippingInvalid = shippingFields.some((field) => clientErrors[field]);
  const submitting = fetcher.state !== "idle";

  function update<K extends keyof typeof form>(field: K, value: (typeof form)[K]) {
    setForm((previous) => {
      const next = { ...previous, [field]: value };
      // Spec §4: changing district clears day and date; changing day clears date.
      if (field === "districtName") Object.assign(next, { diaHabil: "", fecha: "" });
      if (field === "diaHabil") next.fecha = "";
      // A window full on the new date is no longer a choice.
      const full = offeredDays.find((day) => day.date === next.fecha)?.windows.some((offer) => offer.window === next.rangoHorario && !offer.hasRoom);
      if (full) next.rangoHorario = "";
      return next;
    });
  }
  const touch = (field: string) => () => setTouched((previous) => ({ ...previous, [field]: true }));

  /** Spec §7: the cart is saved when the email field loses focus; failures are ignored. */
  function saveCartForRecovery() {
    setTouched((previous) => ({ ...previous, correo: true }));
    if (clientErrors.correo || !form.correo.trim() || items.length === 0) return;
    const lines = items.map(({ productId, variantId, quantity }) => ({ productId, variantId, quantity }));
    fetch("/api/carrito/abandonado", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: form.correo.trim(), items: lines, origin: "checkout" }),
    }).catch(() => {});
    if (!customer) void checkRegisteredEmail(form.correo.trim());
  }

  /** Spec §5: a guest whose email has an account is told the order will be attached to it. */
  async function checkRegisteredEmail(email: string) {
    const response = await fetch("/api/cuenta/correo-registrado", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email }),
    }).catch(() => null);
    const answer = response?.ok ? ((await response.json().catch(() => null)) as { exists?: boolean } | null) : null;
    setRegisteredEmail(answer?.exists ? email : null);
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    setTouched((previous) => ({ ...previous, submit: true }));
    if (!parsed.success || minimumOrderShortfall(subtotal) > 0) return;
    fetcher.submit(parsed.data as never, { method: "post", encType: "application/json" });
  }

  if (!hydrated) {
    return (
      <main id="contenido" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <h1 className="text-3xl font-bold text-brand-900">Finalizar compra</h1>
        <p className="mt-6 text-slate-600">Cargando tu pedido…</p>
      </main>
    );
  }

  const showMinimum = items.length > 0 && minimumOrderShortfall(subtotal) > 0 && !minimumDismissed;
  const result = fetcher.data ?? null;

  return (
    <main id="contenido" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Finalizar compra</h1>
      <form noValidate onSubmit={submit} className="mt-8 grid gap-8 lg:grid-cols-[1fr_22rem]">
        <div className="space-y-8">
          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-3 text-xl font-bold text-brand-900">Datos personales</legend>
            <Field label="Nombre" error={errorFor("nombre")}>
              {(props) => (
                <input
                  {...props}
                  className={inputClass}
                  autoComplete="given-name"
                  value={form.nombre}
                  onChange={(e) => update("nombre", e.target.value)}
                  onBlur={touch("nombre")}
                />
              )}
            </Field>
            <Field label="Apellido" error={errorFor("apellido")}>
              {(props) => (
                <input
                  {...props}
                  className={inputClass}
                  autoComplete="family-name"
                  value={form.apellido}
                  onChange={(e) => update("apellido", e.target.value)}
                  onBlur={touch("apellido")}
                />
              )}
            </Field>
            <Field label="Correo electrónico" error={errorFor("correo")}>
              {(props) => (
                <input
                  {...props}
                  type="email"
                  className={inputClass}
                  autoComplete="email"
                  value={form.correo}
                  onChange={(e) => update("correo", e.target.value)}
                  onBlur={saveCartForRecovery}
                />
              )}
            </Field>
            {registeredEmail && registeredEmail === form.correo.trim() && (
              <p role="status" className="rounded-xl border border-brand-200 bg-brand-50 px-3 py-2 text-sm text-brand-900 sm:col-span-2">
                Este correo ya está registrado. Tu pedido se asignará automáticamente a tu cuenta existente.
              </p>
            )}
            <Field label="Celular" error={errorFor("telefono")}>
              {(props) => (
                <input
                  {...props}
                  type="tel"
                  inputMode="tel"
                  className={inputClass}
                  autoComplete="tel"
                  placeholder="987 654 321"
                  value={form.telefono}
                  onChange={(e) => update("telefono", e.target.value)}
                  onBlur={touch("telefono")}
                />
              )}
            </Field>
            <Field label="Tipo de documento" error={errorFor("tipo_documento")}>
              {(props) => (
                <select
                  {...props}
                  className={inputClass}
                  value={form.tipo_documento}
                  onChange={(e) => update("tipo_documento", e.target.value as DocumentType)}
                >
                  {Object.entries(documentTypeLabels).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Número de documento" error={errorFor("dni")}>
              {(props) => <input {...props} className={inputClass} value={form.dni} onChange={(e) => update("dni", e.target.value)} onBlur={touch("dni")} />}
            </Field>
            <label className="flex items-center gap-2 sm:col-span-2">
              <input type="checkbox" checked={form.wantsInvoice} onChange={(e) => update("wantsInvoice", e.target.checked)} className="accent-brand-700" />
              Necesito factura (RUC)
            </label>
            {form.wantsInvoice && (
              <>
                <Field label="RUC" error={errorFor("ruc")}>
                  {(props) => (
                    <input
                      {...props}
                      inputMode="numeric"
                      className={inputClass}
                      value={form.ruc}
                      onChange={(e) => update("ruc", e.target.value)}
                      onBlur={touch("ruc")}
                    />
                  )}
                </Field>
                <Field label="Razón social" error={errorFor("razonSocial")}>
                  {(props) => (
                    <input
                      {...props}
                      className={inputClass}
                      value={form.razonSocial}
                      onChange={(e) => update("razonSocial", e.target.value)}
                      onBlur={touch("razonSocial")}
                    />
                  )}
                </Field>
              </>
            )}
            <PromotionalConsentCheckbox checked={form.promociones} onChange={(checked) => update("promociones", checked)} />
          </fieldset>

          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-3 text-xl font-bold text-brand-900">Datos de envío</legend>
            <p className="text-sm text-slate-600 sm:col-span-2">Región: Lima</p>
            <Field label="Distrito" error={errorFor("districtId")}>
              {(props) => (
                <>
                  <input
                    {...props}
                    list="served-districts"
                    className={inputClass}
                    placeholder="Busca tu distrito"
                    autoComplete="off"
                    value={form.districtName}
                    onChange={(e) => update("districtName", e.target.value)}
                    onBlur={touch("districtId")}
                  />
                  <datalist id="served-districts">
                    {districts.map((option) => (
                      <option key={option.id} value={option.name} />
                    ))}
                  </datalist>
                </>
              )}
            </Field>
            <Field label="Dirección" error={errorFor("direccion")}>
              {(props) => (
                <input
                  {...props}
                  className={inputClass}
                  autoComplete="street-address"
                  value={form.direccion}
                  onChange={(e) => update("direccion", e.target.value)}
                  onBlur={touch("direccion")}
                />
              )}
            </Field>
            <Field label="Referencia (opcional)">
              {(props) => <input {...props} className={inputClass} value={form.referencia} onChange={(e) => update("referencia", e.target.value)} />}
            </Field>
            <Field label="Día de entrega" error={errorFor("diaHabil")}>
              {(props) => (
                <select
                  {...props}
                  className={inputClass}
                  disabled={!district}
                  value={form.diaHabil}
                  onChange={(e) => update("diaHabil", e.target.value)}
                  onBlur={touch("diaHabil")}
                >
                  <option value="">{district ? "Selecciona un día" : "Primero elige tu distrito"}</option>
                  {district?.dayNumbers.map((day) => (
                    <option key={day} value={day}>
                      {weekdayNames[day]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <fieldset className="sm:col-span-2">
              <legend className="mb-1 font-semibold">Fecha</legend>
              <p className="mb-2 text-sm text-slate-600">Requiere mínimo 1 día de anticipación</p>
              {dates.length === 0 ? (
                <p className="text-sm text-slate-500">
                  {form.diaHabil ? "No quedan fechas disponibles para ese día. Elige otro día." : "Elige el día de entrega para ver las fechas disponibles."}
                </p>
              ) : (
                <div className="flex flex-wrap gap-3">
                  {dates.map((date) => (
                    <label
                      key={date}
                      className="flex cursor-pointer items-center gap-2 rounded-2xl border px-4 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
                    >
                      <input
                        type="radio"
                        name="fecha"
                        value={date}
                        checked={form.fecha === date}
                        onChange={() => update("fecha", date)}
                        className="accent-brand-700"
                      />
                      <span className="first-letter:uppercase">{formatLimaDate(date)}</span>
                    </label>
                  ))}
                </div>
              )}
              {errorFor("fecha") && form.diaHabil && <p className="mt-1 text-sm text-red-700">{errorFor("fecha")}</p>}
            </fieldset>
            <fieldset className="sm:col-span-2">
              <legend className="mb-2 font-semibold">
                Rango horario <span className="text-sm font-normal text-slate-600">(Referencial)</span>
              </legend>
              <div className="flex flex-wrap gap-3">
                {(Object.keys(deliveryWindows) as DeliveryWindow[]).map((window) => {
                  const full = windowsOfDate?.find((offer) => offer.window === window)?.hasRoom === false;
                  return (
                    <label
                      key={window}
                      className={`flex items-center gap-2 rounded-2xl border px-4 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 ${full ? "cursor-not-allowed text-slate-500" : "cursor-pointer"}`}
                    >
                      <input
                        type="radio"
                        name="rangoHorario"
                        value={window}
                        disabled={full}
                        checked={form.rangoHorario === window}
                        onChange={() => update("rangoHorario", window)}
                        className="accent-brand-700"
                      />
                      {deliveryWindows[window].label} ({deliveryWindows[window].hours}){full && " · Sin cupos"}
                    </label>
                  );
                })}
              </div>
              {errorFor("rangoHorario") && <p className="mt-1 text-sm text-red-700">{errorFor("rangoHorario")}</p>}
            </fieldset>
          </fieldset>
        </div>

        <div className="space-y-4">
          {purchaseType === "subscription" && (
            <section aria-labelledby="subscription-account" className="space-y-3 rounded-3xl border border-brand-200 bg-brand-50 p-5 text-sm">
              <h2 id="subscription-account" className="text-base font-bold text-brand-900">
                Tu suscripción
              </h2>
              {!customer && <AccountRequiredNotice />}
              <Field label="Organización que apoyarás (opcional)" error={errorFor("organizationId")}>
                {(props) => (
                  <select {...props} className={inputClass} value={organizationId} onChange={(e) => setOrganizationId(e.target.value)}>
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
          )}
          <OrderSummaryBox cartSubtotalCents={subtotal} purchaseType={purchaseType} frequency={frequency}>
            <div role="alert" className="mt-4 space-y-2 text-sm">
              {shippingInvalid && touched.submit && <p className="text-red-700">{SHIPPING_INCOMPLETE}</p>}
              {errorFor("items") && <p className="text-red-700">{errorFor("items")}</p>}
              {result?.message && <p className="rounded-xl bg-red-50 p-3 text-red-800">{result.message}</p>}
              {result?.accountRequired && <AccountLinks />}
              {result?.inlineError && <p className="text-red-700">{result.inlineError}</p>}
            </div>
            <button
              type="submit"
              disabled={shippingInvalid || !form.correo.trim() || submitting}
              className="mt-4 w-full rounded-full bg-brand-700 px-6 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-slate-400"
            >
              {submitting ? "Procesando…" : "Finalizar compra"}
            </button>
            {shippingInvalid && !touched.submit && <p className="mt-2 text-sm text-slate-600">{SHIPPING_INCOMPLETE}</p>}
          </OrderSummaryBox>
        </div>
      </form>
      <MinimumOrderModal
        open={showMinimum}
        onClose={() => {
          setMinimumDismissed(true);
          navigate("/carrito");
        }}
        subtotalCents={subtotal}
        orderKind={purchaseType === "subscription" ? "suscripción" : "único"}
      />
    </main>
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

function AccountLinks() {
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
