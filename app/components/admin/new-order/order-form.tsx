import { useEffect, useRef, useState } from "react";
import { Form, useFetcher, useNavigation } from "react-router";
import { Field, FieldError } from "~/components/ui/form-field";
import type { MapTiles } from "~/components/map/location-picker";
import { useHydrated } from "~/lib/use-hydrated";
import { documentTypeLabels } from "@core/documents";
import { doorPaymentRefusal } from "@core/door-payment";
import type { DoorPaymentOffer } from "@server/checkout/index.server";
import {
  NEW_ADDRESS,
  PHONE_PROMOTIONS_LABEL,
  PHONE_WHATSAPP_LABEL,
  STAFF_PAYMENT_LABELS,
  usualQuantities,
  type StaffOrderValues,
} from "@core/staff-order-form";
import { AddressFields } from "./address-fields";
import { DeliverySlots, isFullSlot, soonestSlot } from "./delivery-slots";
import { OrderTotal, ProductLines } from "./product-lines";
import type { CallerPicture, DeskDistrict, NewOrderActionData, OfferedDate, OneTimeOrderPreview, SellableLine } from "./types";

const inputClass = "w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base aria-[invalid=true]:border-red-600";

/** The district a form's address is in: the chosen saved address's, or the one picked for a new address. */
function districtOf(values: { direccionElegida: string; districtId: string }, addresses: CallerPicture["addresses"]): string {
  if (values.direccionElegida !== NEW_ADDRESS) {
    const saved = addresses.find((address) => address.key === values.direccionElegida);
    if (saved) return String(saved.districtId);
  }
  return values.districtId;
}

/**
 * The order itself (issue 38): contact, address, products with the server's live total, date and
 * window, payment and the consent said on the phone. One plain POST form (it works without
 * JavaScript: its buttons "Lo de siempre", "Calcular total" and "Crear pedido" each come back
 * from the server with everything as typed); with JavaScript the total follows every change, "Lo de
 * siempre" fills at once and Enter in a box never creates the order by accident.
 */
export function NewOrderForm({
  caller,
  initial,
  checkoutKey,
  sellable,
  districts,
  slots,
  answer,
  doorPayment,
  whatsappOn,
  tiles,
}: {
  caller: CallerPicture | null;
  /** The form's values: as the last answer sent them back, or prefilled from the caller. */
  initial: StaffOrderValues;
  checkoutKey: string;
  sellable: SellableLine[];
  districts: DeskDistrict[];
  slots: Record<number, OfferedDate[]>;
  answer: Extract<NewOrderActionData, { values: StaffOrderValues }> | null;
  /** Where and for whom contra entrega is offered, for the hint; null: not known (the server decides). */
  doorPayment: DoorPaymentOffer | null;
  whatsappOn: boolean;
  tiles: MapTiles;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formData?.get("intent") === "crear";
  const pricing = useFetcher<NewOrderActionData>();
  const formRef = useRef<HTMLFormElement>(null);
  const createRef = useRef<HTMLButtonElement>(null);
  const usualRef = useRef<HTMLButtonElement>(null);
  const addresses = caller?.addresses ?? [];
  const errors = answer?.fieldErrors ?? {};

  const [quantities, setQuantities] = useState(initial.cantidades);
  const [addressChoice, setAddressChoice] = useState(initial.direccionElegida);
  const [typedDistrict, setTypedDistrict] = useState(initial.districtId);
  const [chosenSlot, setChosenSlot] = useState(initial.horario);
  const [payment, setPayment] = useState(initial.pago);
  const [doorMethod, setDoorMethod] = useState(initial.metodoContraEntrega);
  const [usualMissing, setUsualMissing] = useState<string[]>([]);

  const districtId = districtOf({ direccionElegida: addressChoice, districtId: typedDistrict }, addresses);
  const district = districts.find((candidate) => String(candidate.id) === districtId) ?? null;
  const dates = district ? (slots[district.id] ?? []) : [];
  // The slot chosen while it is one of the district's; otherwise the soonest with room (issue 38).
  const slot = dates.some((day) => day.windows.some((window) => `${day.date}|${window.window}` === chosenSlot)) ? chosenSlot : soonestSlot(dates);

  const preview: OneTimeOrderPreview | null =
    (pricing.data && pricing.data.intent === "precio" ? pricing.data.preview : null) ?? (answer?.preview ? answer.preview : null);
  // Why contra entrega would be refused for this district, total and customer (the checkout's rule), if it would.
  const doorRefusal = doorPayment
    ? doorPaymentRefusal(doorPayment.settings, {
        districtOffers: district === null || doorPayment.districtIds.includes(district.id),
        totalCents: preview?.totalCents ?? 0,
        hasDeliveredOrder: doorPayment.hasDeliveredOrder,
      })
    : null;

  // The live total: the server prices the lines as typed, after each change (the form carries no price).
  const reprice = () => {
    if (!formRef.current) return;
    const data = new FormData(formRef.current);
    const body = new FormData();
    body.set("intent", "precio");
    for (const name of ["cliente", "correo", "telefono"]) body.set(name, String(data.get(name) ?? ""));
    for (const [name, value] of data.entries()) if (name.startsWith("cantidad:")) body.set(name, value);
    void pricing.submit(body, { method: "post" });
  };
  const priced = useRef(false);
  const quantitiesKey = JSON.stringify(quantities);
  useEffect(() => {
    // The first render shows what the server already priced (or nothing typed yet).
    if (!priced.current) {
      priced.current = true;
      if (answer?.preview || Object.keys(quantities).length === 0) return;
    }
    reprice();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- repriced when the quantities change, by their content
  }, [quantitiesKey]);

  function fillUsual(event: React.MouseEvent<HTMLButtonElement>) {
    if (!caller?.lastOrder) return;
    event.preventDefault();
    const usual = usualQuantities(caller.lastOrder.lines, sellable);
    setQuantities(usual.quantities);
    setUsualMissing(usual.missing);
    // Next: create the order (Enter, or a look at the total first).
    createRef.current?.focus();
  }

  const contact = (name: keyof StaffOrderValues, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <Field label={label} error={errors[name]} id={name}>
      {(field) => <input {...field} {...props} name={name} defaultValue={String(initial[name])} className={inputClass} autoComplete="off" />}
    </Field>
  );

  return (
    <Form
      method="post"
      ref={formRef}
      className="space-y-6 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-100 sm:p-6"
      aria-label="Nuevo pedido"
      onKeyDown={(event) => {
        // Enter in a box only moves on; the order is created by its button (issue 38).
        const target = event.target as HTMLElement;
        if (event.key === "Enter" && target instanceof HTMLInputElement && target.type !== "submit") event.preventDefault();
      }}
    >
      {/* Without JavaScript, Enter in a box presses the form's first button: this one, which only checks the form. */}
      <button type="submit" name="intent" value="revisar" tabIndex={-1} className="sr-only">
        Revisar el pedido
      </button>
      <input type="hidden" name="checkoutKey" value={checkoutKey} />
      <input type="hidden" name="cliente" value={caller?.reference ?? ""} />
      {answer?.message && (
        <p role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800">
          {answer.message}
        </p>
      )}
      <FieldError id="form-error" message={errors.form ?? errors.cliente} className="rounded-xl bg-red-50 px-3 py-2 text-red-800" />

      <fieldset className="grid min-w-0 gap-3 sm:grid-cols-2">
        <legend className="mb-2 text-lg font-bold text-slate-900">
          {caller ? `Datos de ${caller.contact.nombre} (${caller.kind === "account" ? "cuenta" : "invitado"})` : "Datos del cliente nuevo"}
        </legend>
        {contact("nombre", "Nombre", { autoFocus: !caller, maxLength: 80 })}
        {contact("apellido", "Apellido", { maxLength: 80 })}
        {contact("telefono", "Celular", { type: "tel", inputMode: "tel", maxLength: 40 })}
        {contact("correo", "Correo electrónico", { type: "email", maxLength: 254 })}
        <Field label="Tipo de documento" error={errors.tipo_documento} id="tipo_documento">
          {(field) => (
            <select {...field} name="tipo_documento" defaultValue={initial.tipo_documento || "dni"} className={inputClass}>
              {Object.entries(documentTypeLabels).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {contact("dni", "Número de documento", { maxLength: 40 })}
        <details className="sm:col-span-2" open={Boolean(initial.ruc || errors.ruc || errors.razonSocial)}>
          <summary className="cursor-pointer text-sm font-semibold text-brand-800">Factura (RUC)</summary>
          <div className="mt-2 grid gap-3 sm:grid-cols-2">
            {contact("ruc", "RUC", { inputMode: "numeric", maxLength: 11 })}
            {contact("razonSocial", "Razón social", { maxLength: 160 })}
          </div>
        </details>
        {caller && caller.subscriptions.length > 0 && (
          <p className="rounded-xl bg-sky-50 px-3 py-2 text-sm text-sky-900 sm:col-span-2">
            Tiene suscripción ({caller.subscriptions.map((subscription) => `${subscription.subscriptionNumber}, ${subscription.status}`).join("; ")}): este
            pedido es aparte, a precio normal.
          </p>
        )}
      </fieldset>

      <AddressFields
        addresses={addresses}
        districts={districts}
        choice={addressChoice}
        onChoice={setAddressChoice}
        districtId={typedDistrict}
        onDistrict={setTypedDistrict}
        typed={{ direccion: initial.direccion, referencia: initial.referencia, coordenadas: initial.coordenadas }}
        errors={errors}
        hydrated={hydrated}
        tiles={tiles}
      />

      <ProductLines
        sellable={sellable}
        quantities={quantities}
        onQuantity={(key, value) => setQuantities((current) => ({ ...current, [key]: value }))}
        lastOrder={caller?.lastOrder ?? null}
        onUsual={fillUsual}
        usualRef={usualRef}
        focusUsual={Boolean(caller?.lastOrder) && !answer}
        error={errors.items}
      />
      {usualMissing.length > 0 && (
        <p role="status" className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Ya no se vende: {usualMissing.join(", ")}.
        </p>
      )}
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1 basis-64">
          <OrderTotal preview={preview} pending={pricing.state !== "idle"} />
        </div>
        {!hydrated && (
          <button type="submit" name="intent" value="revisar" className="rounded-xl border border-brand-700 px-4 py-2.5 font-semibold text-brand-800">
            Calcular total
          </button>
        )}
      </div>

      <DeliverySlots
        districtName={district?.name ?? null}
        dates={dates}
        slot={slot}
        onSlot={setChosenSlot}
        reason={initial.motivoSobrecupo}
        showReason={!hydrated || isFullSlot(dates, slot)}
        error={errors.horario}
        reasonError={errors.motivoSobrecupo}
      />

      <fieldset className="min-w-0" aria-describedby={errors.pago ? "pago-error" : undefined}>
        <legend className="mb-2 text-lg font-bold text-slate-900">Pago</legend>
        <div className="flex flex-wrap gap-2">
          {(Object.keys(STAFF_PAYMENT_LABELS) as (keyof typeof STAFF_PAYMENT_LABELS)[]).map((choice) => (
            <label key={choice} className="flex items-center gap-2 rounded-xl border px-3 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
              <input type="radio" name="pago" value={choice} checked={payment === choice} onChange={() => setPayment(choice)} className="accent-brand-700" />
              {STAFF_PAYMENT_LABELS[choice]}
            </label>
          ))}
        </div>
        {doorRefusal && (
          <p className="mt-2 rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="door-payment-refusal">
            Contra entrega no disponible: {doorRefusal}
          </p>
        )}
        <FieldError id="pago-error" message={errors.pago} />
        {(!hydrated || payment === "contra_entrega") && (
          <div className="mt-3 grid gap-3 sm:grid-cols-2">
            <fieldset>
              <legend className="mb-1 text-sm font-semibold">Contra entrega: cómo paga en la puerta</legend>
              <div className="flex flex-wrap gap-2">
                {(["efectivo", "yape"] as const).map((method) => (
                  <label
                    key={method}
                    className="flex items-center gap-2 rounded-xl border px-3 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
                  >
                    <input
                      type="radio"
                      name="metodoContraEntrega"
                      value={method}
                      checked={doorMethod === method}
                      onChange={() => setDoorMethod(method)}
                      className="accent-brand-700"
                    />
                    {method === "efectivo" ? "Efectivo" : "Yape"}
                  </label>
                ))}
              </div>
            </fieldset>
            <div hidden={hydrated && doorMethod !== "efectivo"}>
              <Field label="¿Con cuánto paga? (opcional, en soles)" error={errors.pagaCon} id="pagaCon">
                {(field) => <input {...field} name="pagaCon" inputMode="decimal" defaultValue={initial.pagaCon} maxLength={12} className={inputClass} />}
              </Field>
            </div>
          </div>
        )}
        {payment === "link" && hydrated && (
          <p className="mt-2 text-sm text-slate-700">Le enviamos el link por correo, y por WhatsApp si su número recibe avisos.</p>
        )}
        {payment === "codigo" && hydrated && <p className="mt-2 text-sm text-slate-700">Al crear el pedido verás el código para dictárselo.</p>}
      </fieldset>

      <fieldset className="min-w-0 space-y-2">
        <legend className="mb-2 text-lg font-bold text-slate-900">Lo que el cliente aceptó por teléfono</legend>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" name="promociones" defaultChecked={initial.promociones} className="mt-1 accent-brand-700" />
          <span>
            {PHONE_PROMOTIONS_LABEL}. <span className="text-slate-600">Le llegará un correo para confirmarlo.</span>
          </span>
        </label>
        {whatsappOn && (
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name="whatsapp" defaultChecked={initial.whatsapp} className="mt-1 accent-brand-700" />
            <span>
              {PHONE_WHATSAPP_LABEL}. <span className="text-slate-600">Le escribiremos a ese número para que responda SÍ.</span>
            </span>
          </label>
        )}
      </fieldset>

      <button
        ref={createRef}
        type="submit"
        name="intent"
        value="crear"
        disabled={submitting}
        className="w-full rounded-xl bg-brand-700 px-6 py-3 text-lg font-semibold text-white hover:bg-brand-800 disabled:bg-slate-400 sm:w-auto"
      >
        {submitting ? "Creando pedido…" : "Crear pedido"}
      </button>
    </Form>
  );
}
