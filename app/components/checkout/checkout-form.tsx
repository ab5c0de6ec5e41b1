import { useEffect, useMemo, useState } from "react";
import { useFetcher, useLocation, useNavigate } from "react-router";
import { MinimumOrderModal } from "~/components/shop/minimum-order-modal";
import { cartSubtotalCents } from "~/lib/cart";
import { checkoutSchema, fieldErrors } from "@core/checkout-schema";
import type { DeliveryWindow } from "@core/delivery-schedule";
import { matchDistrict } from "@core/district-match";
import { isoWeekday } from "@core/lima-dates";
import { minimumOrderShortfall, orderSummary, type PurchaseType, type SubscriptionFrequency } from "@core/pricing";
import { DEFAULT_DELIVERY_CADENCE, monthlySubtotalCents, type DeliveryCadence } from "@core/delivery-cadence";
import { garantiaCharge, garantiaCreditToApply } from "@core/garantia";
import type { SummaryGarantia } from "~/components/shop/order-summary";
import { useGarantiaLines } from "./use-garantia-lines";
import { usePurchaseOptions } from "~/lib/purchase-options";
import { useCart } from "~/lib/use-cart";
import { useHydrated } from "~/lib/use-hydrated";
import { emptyCheckoutForm, type CheckoutFieldBindings } from "./checkout-form-state";
import { CustomerContactFields } from "./customer-data-fields";
import { DeliveryFieldset, type District } from "./delivery-fields";
import { DocumentFields } from "./document-fields";
import { PaymentSummary } from "./payment-summary";
import { SubscriptionOptions } from "./subscription-options";
import { PromotionalConsentCheckbox } from "~/components/consent/promotional-consent-checkbox";
import { WhatsappOptInCheckbox } from "~/components/consent/whatsapp-opt-in-checkbox";
import type { MapTiles } from "~/components/map/location-picker";
import type { DoorPaymentOffer } from "@server/checkout/index.server";
import { PaymentMethodFieldset } from "./payment-method-fields";

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

/** What a signed-in customer's profile puts in the form (issue 4). */
export type CheckoutPrefill = Pick<
  typeof emptyCheckoutForm,
  "nombre" | "apellido" | "correo" | "telefono" | "tipo_documento" | "dni" | "districtName" | "direccion" | "ubicacion"
>;

/**
 * What a page that leads here may hand over in the navigation's state (never the URL): the purchase
 * type, and for "Repetir pedido" (decision 0076) the fields it fills and its notes.
 */
export interface CheckoutNavigationState {
  purchaseType?: PurchaseType;
  subscriptionFrequency?: SubscriptionFrequency;
  prefill?: Partial<Pick<typeof emptyCheckoutForm, "nombre" | "apellido" | "correo" | "telefono" | "districtName" | "direccion" | "referencia">>;
  notes?: string[];
}

/** A signed-in customer's bidones and garantía credit (decision 0075); null for a guest. */
export type CheckoutGarantiaContext = { heldBidones: number; creditCents: number } | null;

const GUEST_GARANTIA_NOTE =
  "La garantía se cobra por cada bidón retornable que aún no tienes y se devuelve cuando nos lo devuelves. Si ya tienes bidones nuestros, al confirmar lo comprobamos con tu correo y celular y no se cobra por ellos.";

export function CheckoutForm({
  districts,
  offered,
  missed,
  customer,
  organizations,
  garantiaContext = null,
  doorPayment,
  tiles,
  liveSubscriptions = [],
}: {
  districts: District[];
  offered: OfferedSlots;
  /** Issue 41: the district's weekday dates not offered, each with why. */
  missed: Record<number, { date: string; reason: string }[]>;
  customer: CheckoutPrefill | null;
  organizations: { id: number; title: string }[];
  garantiaContext?: CheckoutGarantiaContext;
  doorPayment: DoorPaymentOffer;
  tiles: MapTiles;
  /** Issue 41: the signed-in customer's live subscriptions; subscribing again asks "¿Quieres otra?". */
  liveSubscriptions?: { id: string; subscriptionNumber: string }[];
}) {
  const hydrated = useHydrated();
  const { items } = useCart();
  const stored = usePurchaseOptions();
  const location = useLocation();
  const navigate = useNavigate();
  const fetcher = useFetcher<CheckoutActionData>();
  const navigationState = location.state as CheckoutNavigationState | null;
  const [form, setForm] = useState(() => ({ ...emptyCheckoutForm, ...customer, ...navigationState?.prefill }));
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);
  const [organizationId, setOrganizationId] = useState("");
  const [anotherSubscription, setAnotherSubscription] = useState(false);
  const [cadence, setCadence] = useState<DeliveryCadence>(DEFAULT_DELIVERY_CADENCE);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [checkoutKey] = useState(() => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : ""));
  const [minimumDismissed, setMinimumDismissed] = useState(false);

  const purchaseType = navigationState?.purchaseType ?? stored.purchaseType;
  const frequency = navigationState?.subscriptionFrequency ?? stored.subscriptionFrequency;
  const subtotal = cartSubtotalCents(items);
  const garantiaLines = useGarantiaLines(items);
  // Decision 0097: the cart is one delivery; a subscription is priced on the month's deliveries.
  const pricedCents = purchaseType === "subscription" ? monthlySubtotalCents(subtotal, cadence) : subtotal;
  const garantia = summaryGarantia(garantiaLines, garantiaContext, orderSummary(pricedCents, purchaseType, frequency).totalCents, purchaseType);

  // Issue 41: "surco" typed and never picked from the list is Santiago de Surco, said aloud.
  const districtMatch = matchDistrict(form.districtName, districts);
  const district = districtMatch.kind === "exact" || districtMatch.kind === "understood" ? districtMatch.district : undefined;
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
  // Issue 41: the chosen weekday's dates that are not offered, up to the last one shown, with why.
  const missedDates = useMemo(() => {
    if (!district || !form.diaHabil) return [];
    const shownUntil = dates[dates.length - 1];
    return (missed[district.id] ?? []).filter((day) => isoWeekday(day.date) === Number(form.diaHabil) && (!shownUntil || day.date < shownUntil));
  }, [district, form.diaHabil, dates, missed]);

  useEffect(() => {
    // React Router reports a failed navigation through its error boundary; the promise only says when it settled.
    if (hydrated && items.length === 0) void navigate("/tienda", { replace: true });
  }, [hydrated, items.length, navigate]);

  const payload = {
    checkoutKey,
    purchaseType,
    subscriptionFrequency: frequency,
    deliveryCadence: purchaseType === "subscription" ? cadence : DEFAULT_DELIVERY_CADENCE,
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
    ubicacion: form.ubicacion,
    diaHabil: form.diaHabil ? Number(form.diaHabil) : 0,
    fecha: form.fecha,
    rangoHorario: form.rangoHorario,
    organizationId: purchaseType === "subscription" ? organizationId : undefined,
    otraSuscripcion: purchaseType === "subscription" && anotherSubscription,
    items: items.map(({ productId, variantId, quantity }) => ({ productId, variantId, quantity })),
    clientSubtotalCents: subtotal,
    promociones: form.promociones,
    whatsapp: form.whatsapp,
    formaPago: purchaseType === "one-time" ? form.formaPago : "en_linea",
    metodoContraEntrega: form.metodoContraEntrega,
    pagaCon: form.formaPago === "contra_entrega" && form.metodoContraEntrega === "efectivo" ? form.pagaCon : undefined,
  };
  const parsed = checkoutSchema.safeParse(payload);
  const clientErrors = parsed.success ? {} : fieldErrors(parsed.error);
  const serverErrors = fetcher.data?.fieldErrors ?? {};
  const errorFor = (field: string) => (touched[field] || touched.submit ? (clientErrors[field] ?? serverErrors[field]) : serverErrors[field]);
  const shippingFields = ["districtId", "direccion", "diaHabil", "fecha", "rangoHorario"];
  const shippingInvalid = shippingFields.some((field) => clientErrors[field]);
  const submitting = fetcher.state !== "idle";
  // Issue 41: the server refuses it too; here the customer is told before anything is sent.
  const askAnother = purchaseType === "subscription" && (liveSubscriptions.length > 0 || serverErrors.otraSuscripcion !== undefined);
  const secondUnconfirmed = askAnother && !anotherSubscription;

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
  /** "Lo antes posible" and the next dates: one tap chooses the weekday and the date together. */
  function chooseDate(date: string) {
    setForm((previous) => {
      const next = { ...previous, diaHabil: String(isoWeekday(date)), fecha: date };
      const full = offeredDays.find((day) => day.date === date)?.windows.some((offer) => offer.window === next.rangoHorario && !offer.hasRoom);
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
    if (!parsed.success || minimumOrderShortfall(subtotal) > 0 || secondUnconfirmed) return;
    // The fetcher's answer (or its error) arrives in fetcher.data and fetcher.state, which the form renders.
    void fetcher.submit(parsed.data as never, { method: "post", encType: "application/json" });
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
  const bindings: CheckoutFieldBindings = { form, update, touch, errorFor };

  return (
    <main id="contenido" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-brand-900">Finalizar compra</h1>
      {navigationState?.notes && navigationState.notes.length > 0 && (
        <ul role="status" className="mt-4 space-y-1 rounded-xl bg-amber-50 p-4 text-sm text-amber-900" data-testid="checkout-notes">
          {navigationState.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      <form noValidate onSubmit={submit} className="mt-8 grid gap-8 lg:grid-cols-[1fr_22rem]">
        <div className="space-y-8">
          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-3 text-xl font-bold text-brand-900">Datos personales</legend>
            <CustomerContactFields {...bindings} onEmailBlur={saveCartForRecovery} registeredEmail={registeredEmail} />
            <DocumentFields {...bindings} />
            <PromotionalConsentCheckbox checked={form.promociones} onChange={(checked) => update("promociones", checked)} />
            <WhatsappOptInCheckbox checked={form.whatsapp} onChange={(checked) => update("whatsapp", checked)} />
          </fieldset>
          <DeliveryFieldset
            {...bindings}
            districts={districts}
            district={district}
            districtMatch={districtMatch}
            soonest={soonestDates(offeredDays.map((day) => day.date))}
            onChooseDate={chooseDate}
            missedDates={missedDates}
            dates={dates}
            windowsOfDate={windowsOfDate}
            tiles={tiles}
          />
          {purchaseType === "one-time" && (
            <PaymentMethodFieldset
              bindings={bindings}
              offer={doorPayment}
              districtId={district?.id ?? null}
              totalCents={orderSummary(pricedCents, purchaseType, frequency).totalCents + (garantia?.cents ?? 0) - (garantia?.creditCents ?? 0)}
            />
          )}
        </div>

        <div className="space-y-4">
          {purchaseType === "subscription" && (
            <SubscriptionOptions
              signedIn={customer !== null}
              frequency={frequency}
              deliverySubtotalCents={subtotal}
              cadence={cadence}
              onCadenceChange={setCadence}
              cadenceError={errorFor("deliveryCadence")}
              organizations={organizations}
              organizationId={organizationId}
              onOrganizationChange={setOrganizationId}
              error={errorFor("organizationId")}
              liveSubscriptions={liveSubscriptions}
              anotherSubscription={anotherSubscription}
              onAnotherSubscriptionChange={setAnotherSubscription}
              askAnother={askAnother}
              anotherSubscriptionError={
                secondUnconfirmed
                  ? (serverErrors.otraSuscripcion ?? (touched.submit ? "Marca «Sí, quiero otra suscripción» para continuar." : undefined))
                  : undefined
              }
            />
          )}
          <PaymentSummary
            subtotalCents={subtotal}
            purchaseType={purchaseType}
            frequency={frequency}
            cadence={purchaseType === "subscription" ? cadence : DEFAULT_DELIVERY_CADENCE}
            result={fetcher.data ?? null}
            itemsError={errorFor("items")}
            shippingInvalid={shippingInvalid}
            submitted={Boolean(touched.submit)}
            canSubmit={!shippingInvalid && form.correo.trim() !== ""}
            submitting={submitting}
            garantia={garantia}
            lines={items.map((item) => ({ key: item.key, title: item.title, variantTitle: item.variantTitle, quantity: item.quantity, unitCents: item.price }))}
          />
        </div>
      </form>
      <MinimumOrderModal
        open={showMinimum}
        onClose={() => {
          setMinimumDismissed(true);
          void navigate("/carrito"); // failures reach the error boundary, not this promise
        }}
        subtotalCents={subtotal}
        orderKind={purchaseType === "subscription" ? "suscripción" : "único"}
      />
    </main>
  );
}

/** The garantía line of the summary: the cart's bidones less those the customer holds, and the credit a one-time order spends. */
function summaryGarantia(
  lines: ReturnType<typeof useGarantiaLines>,
  context: CheckoutGarantiaContext,
  ordersTotalCents: number,
  purchaseType: PurchaseType,
): SummaryGarantia | null {
  if (!lines) return null;
  const charge = garantiaCharge(lines, context?.heldBidones ?? 0);
  const totalCents = ordersTotalCents + charge.cents;
  const creditCents = context && purchaseType === "one-time" ? garantiaCreditToApply(context.creditCents, totalCents) : 0;
  const hasBidones = lines.some((line) => line.bidones > 0 && line.unitCents > 0);
  const note = !hasBidones
    ? undefined
    : context
      ? charge.units > 0
        ? "La garantía se cobra solo por los bidones retornables que aún no tienes y se devuelve cuando nos los devuelves."
        : "Ya tienes bidones nuestros para cambiar: no se cobra garantía."
      : GUEST_GARANTIA_NOTE;
  return { ...charge, creditCents, note };
}

/**
 * "Lo antes posible" (issue 41): the first three offered dates, whatever their weekday, each among
 * the two of its weekday the form offers (spec §5), so one tap fills the weekday and the date.
 */
function soonestDates(offered: string[]): string[] {
  const perWeekday = new Map<number, number>();
  const soonest: string[] = [];
  for (const date of offered) {
    const seen = perWeekday.get(isoWeekday(date)) ?? 0;
    perWeekday.set(isoWeekday(date), seen + 1);
    if (seen < 2) soonest.push(date);
    if (soonest.length === 3) break;
  }
  return soonest;
}
